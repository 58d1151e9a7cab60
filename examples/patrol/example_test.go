package main

import "os"

func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// tick 1
	//   IsBatteryOK: 80% → true
	//   GoTo(A): start, 2 ticks of driving
	//   GoTo(A): driving
	//   => RUNNING
	// tick 2
	//   IsBatteryOK: 70% → true
	//   GoTo(A): arrived
	//   GoTo(B): start, 3 ticks of driving
	//   GoTo(B): driving
	//   => RUNNING
	// tick 3
	//   IsBatteryOK: 50% → true
	//   GoTo(B): driving
	//   => RUNNING
	// tick 4
	//   IsBatteryOK: 40% → true
	//   GoTo(B): arrived
	//   GoTo(C): start, 2 ticks of driving
	//   GoTo(C): driving
	//   => RUNNING
	// tick 5
	//   IsBatteryOK: 20% → false
	//   GoTo(C): halted before arriving
	//   => FAILURE
	// recharging to 100%
	// tick 6
	//   IsBatteryOK: 100% → true
	//   GoTo(C): start, 2 ticks of driving
	//   GoTo(C): driving
	//   => RUNNING
	// tick 7
	//   IsBatteryOK: 90% → true
	//   GoTo(C): arrived
	//   => SUCCESS
	// patrol complete
}
