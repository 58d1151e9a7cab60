package main

import "os"

func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// IsBatteryOK: 20%, at least 30% wanted
	// Charge: plugged in at 20%
	// Charge: 40%
	// Charge: 60%
	// PlanRoute: planning a route to the kitchen, in the background
	// (after the tick, the robot is in the hall)
	// (after the tick, the robot is in the corridor)
	// Deliver: tea delivered in the kitchen
	// (after the tick, the robot is in the kitchen)
	// SUCCESS, battery at 45%
}

// The TreeNodesModel of the custom nodes, for Groot2 or bt check --models.
func Example_models() {
	if err := writeModels(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// <root BTCPP_format="4">
	//     <TreeNodesModel>
	//         <Action ID="Charge">
	//             <inout_port name="level" type="int">the battery level, in percent</inout_port>
	//             <input_port name="until" type="int" default="100">the level to charge to</input_port>
	//         </Action>
	//         <Action ID="Deliver">
	//             <input_port name="parcel" type="std::string">what to deliver</input_port>
	//             <input_port name="at" type="std::string">where the robot is</input_port>
	//         </Action>
	//         <Action ID="FollowRoute">
	//             <input_port name="route" type="std::vector&lt;std::string&gt;">the places to pass</input_port>
	//             <output_port name="at" type="std::string">where the robot is</output_port>
	//             <inout_port name="battery" type="int">the battery level, in percent</inout_port>
	//         </Action>
	//         <Condition ID="IsBatteryOK">
	//             <input_port name="level" type="int">the battery level, in percent</input_port>
	//             <input_port name="min" type="int" default="30">the lowest level that is fine</input_port>
	//         </Condition>
	//         <Action ID="PlanRoute">
	//             <input_port name="to" type="std::string">where to go</input_port>
	//             <output_port name="route" type="std::vector&lt;std::string&gt;">the places to pass, from here to there</output_port>
	//         </Action>
	//     </TreeNodesModel>
	// </root>
}
