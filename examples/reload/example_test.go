package main

import "os"

func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// tick 1
	//   Drive(A): start
	//   Drive(A): driving
	//   => RUNNING
	// tick 2
	//   Drive(A): arrived
	//   Drive(B): start
	//   Drive(B): driving
	//   => RUNNING
	// tick 3
	//   Drive(B): driving
	//   => RUNNING
	// edit: a new greeting, and D in place of C
	//   3 kept, 0 added, 0 removed, 2 changed, 0 halted
	//   changed: Script::2, Drive::5
	// edit: a port misspelt
	//   refused: patrol.xml:5:24: Drive has no port "tics"; did you mean "ticks"?
	// tick 4
	//   Drive(B): arrived
	//   Drive(D): start
	//   Drive(D): driving
	//   => RUNNING
	// tick 5
	//   Drive(D): arrived
	//   => SUCCESS
	// tick 6
	//   Drive(A): start
	//   Drive(A): driving
	//   => RUNNING
	// tick 7
	//   Drive(A): arrived
	//   Drive(B): start
	//   Drive(B): driving
	//   => RUNNING
	// say = "hi"
}
