package main

import "os"

// The output is deterministic: the approach goroutine moves only when the world lets it.
func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// Scenario: the enemy stays in sight
	// tick 1
	//   IsEnemyVisible: true
	//   => RUNNING
	//   ApproachEnemy: moved, 2 m to go
	// tick 2
	//   IsEnemyVisible: true
	//   => RUNNING
	//   ApproachEnemy: moved, 1 m to go
	// tick 3
	//   IsEnemyVisible: true
	//   => RUNNING
	//   ApproachEnemy: moved, 0 m to go
	// tick 4
	//   IsEnemyVisible: true
	//   Shoot: bang!
	//   => SUCCESS
	// Scenario: the enemy hides at tick 3
	// tick 1
	//   IsEnemyVisible: true
	//   => RUNNING
	//   ApproachEnemy: moved, 2 m to go
	// tick 2
	//   IsEnemyVisible: true
	//   => RUNNING
	//   ApproachEnemy: moved, 1 m to go
	// tick 3
	//   IsEnemyVisible: false
	//   ApproachEnemy: halted
	//   => FAILURE
}
