// Command peerbench runs the peers benchmarks in rounds and prints, for every shape,
// each library's median figure, its range over the rounds and its ratio to bt.
//
//	cd bench/peers && go run ./cmd/peerbench [-rounds 6] [-benchtime 300ms] [-shapes Flat,Agents]
//	cd bench/peers && go run ./cmd/peerbench -callgrind [-shapes Flat,Agents]
//
// It compiles the benchmarks once, then runs each library's benchmark of a shape in a
// process of its own, one process at a time: round after round, each round running
// every library once, starting with a different library each round. A ratio is the
// median of the rounds' ratios (a library's figure divided by bt's in the same round),
// so both sides of a ratio see the same state of a shared machine.
//
// With -callgrind it counts instructions instead, which do not depend on what else the
// machine runs: each benchmark runs under valgrind's callgrind for N iterations, with
// GOMAXPROCS=1, no asynchronous preemption and no garbage collector, and callgrind
// counts only the timed loop (the function timed of the benchmarks) — not the setup,
// the checks or the runtime's other threads, whose work varies with the wall-clock time.
// The counts repeat to a few instructions in ten million. They ignore the cache misses
// that weigh on the agent shapes, and leave out the collector's work for libraries
// that allocate while they tick (the allocs column shows which).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobt/bt/bench/peers"
)

// heapUnit is the metric the agent shapes report besides their time.
const heapUnit = "B/agent"

func main() {
	rounds := flag.Int("rounds", 6, "rounds: each runs every benchmark once")
	benchtime := flag.String("benchtime", "300ms", "-test.benchtime of each run")
	only := flag.String("shapes", "", "comma-separated shapes to run (default all)")
	cg := flag.Bool("callgrind", false, "count instructions under valgrind instead of timing")
	flag.Parse()
	if err := run(*rounds, *benchtime, *only, *cg); err != nil {
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(1)
	}
}

// figures holds one library's figures for a shape, by unit, one per round.
type figures map[string][]float64

func run(rounds int, benchtime, only string, cg bool) error {
	shapes := peers.Shapes
	if only != "" {
		shapes = nil
		for _, name := range strings.Split(only, ",") {
			sh := peers.ShapeNamed(name)
			if sh == nil {
				return fmt.Errorf("no shape %q", name)
			}
			shapes = append(shapes, sh)
		}
	}
	if rounds < 1 {
		return fmt.Errorf("rounds must be at least 1")
	}
	dir, err := os.MkdirTemp("", "peerbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "peers.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "github.com/gobt/bt/bench/peers")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the benchmarks: %w", err)
	}

	if cg {
		return countAll(bin, shapes)
	}
	start := time.Now()
	loadStart := loadAverage()
	got := map[*peers.Shape]map[string]figures{}
	for r := range rounds {
		fmt.Fprintf(os.Stderr, "round %d of %d\n", r+1, rounds)
		for _, sh := range shapes {
			if got[sh] == nil {
				got[sh] = map[string]figures{}
			}
			for i := range sh.Libs {
				lib := sh.Libs[(r+i)%len(sh.Libs)]
				f, err := bench(bin, sh, lib.Name, benchtime)
				if err != nil {
					return err
				}
				if got[sh][lib.Name] == nil {
					got[sh][lib.Name] = figures{}
				}
				for unit, v := range f {
					got[sh][lib.Name][unit] = append(got[sh][lib.Name][unit], v)
				}
			}
		}
	}

	fmt.Printf("peers benchmark, %s: %d rounds of %s per benchmark, %s\n",
		start.UTC().Format("2006-01-02 15:04 MST"), rounds, benchtime, time.Since(start).Round(time.Second))
	fmt.Printf("%s, %s; load average %s at the start, %s at the end\n\n", goVersion(), cpu(), loadStart, loadAverage())
	fmt.Println("| shape | library | median | range | ÷ bt |")
	fmt.Println("|---|---|---|---|---|")
	for _, sh := range shapes {
		table(sh, sh.Unit, sh.Title, got[sh])
	}
	for _, sh := range shapes {
		if sh.Heap {
			table(sh, heapUnit, "heap per agent (tree + its blackboard), "+strings.TrimPrefix(sh.Title, "10,000 agents, "), got[sh])
		}
	}
	return nil
}

// table prints a shape's lines for one unit.
func table(sh *peers.Shape, unit, title string, got map[string]figures) {
	ref := got[sh.Ref][unit]
	for i, lib := range sh.Libs {
		v := got[lib.Name][unit]
		ratios := make([]float64, len(v))
		for r := range v {
			ratios[r] = v[r] / ref[r]
		}
		name := ""
		if i == 0 {
			name = title + ", " + unit
		}
		fmt.Printf("| %s | %s | %s | %s–%s | %.2f |\n", name, lib.Name,
			num(median(v)), num(slices.Min(v)), num(slices.Max(v)), median(ratios))
	}
}

// bench runs one library's benchmark of a shape and returns its figures by unit.
func bench(bin string, sh *peers.Shape, lib, benchtime string) (map[string]float64, error) {
	out, err := runBench(exec.Command(bin), sh, lib, benchtime)
	if err != nil {
		return nil, err
	}
	return parse(out, sh, lib)
}

// runBench runs cmd, the benchmark binary or a tool that runs it, on one library's
// benchmark of a shape, and returns what it printed.
func runBench(cmd *exec.Cmd, sh *peers.Shape, lib, benchtime string) (string, error) {
	cmd.Args = append(cmd.Args, "-test.run", "^$", "-test.bench", "^Benchmark"+sh.Name+"$/^"+lib+"$",
		"-test.benchtime", benchtime)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s/%s: %w\n%s", sh.Name, lib, err, out.String())
	}
	return out.String(), nil
}

// parse finds the result line of one library's benchmark of a shape.
func parse(out string, sh *peers.Shape, lib string) (map[string]float64, error) {
	name := "Benchmark" + sh.Name + "/" + lib
	for line := range strings.Lines(out) {
		fields := strings.Fields(line)
		if len(fields) < 4 || !strings.HasPrefix(fields[0], name+"-") && fields[0] != name {
			continue
		}
		f := map[string]float64{}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q: %w", name, line, err)
			}
			f[fields[i+1]] = v
		}
		if _, ok := f[sh.Unit]; !ok {
			return nil, fmt.Errorf("%s reported no %s: %q", name, sh.Unit, line)
		}
		if _, ok := f[heapUnit]; sh.Heap && !ok {
			return nil, fmt.Errorf("%s reported no %s: %q", name, heapUnit, line)
		}
		return f, nil
	}
	return nil, fmt.Errorf("%s printed no result:\n%s", name, out)
}

// iterations is N for each shape when counting instructions (a multiple of MemCycle for
// the agents, so that they are whole action cycles).
var iterations = map[string]int{"Flat": 1000, "Reactive": 20000, "Agents": peers.MemCycle, "MemoryAgents": peers.MemCycle}

// countAll prints the instructions per unit of every library on every shape.
func countAll(bin string, shapes []*peers.Shape) error {
	start := time.Now()
	fmt.Fprintln(os.Stderr, "counting instructions under callgrind (minutes)")
	var lines []string
	for _, sh := range shapes {
		perLib := map[string]float64{}
		allocs := map[string]float64{}
		for _, lib := range sh.Libs {
			n := iterations[sh.Name]
			c, f, err := count(bin, sh, lib.Name, n)
			if err != nil {
				return err
			}
			perLib[lib.Name] = c / float64(n) / sh.Per
			allocs[lib.Name] = f["allocs/op"] / sh.Per
			fmt.Fprintf(os.Stderr, "%s/%s: %.0f instructions per %s\n", sh.Name, lib.Name, perLib[lib.Name],
				strings.TrimPrefix(sh.Unit, "ns/"))
		}
		for i, lib := range sh.Libs {
			name := ""
			if i == 0 {
				name = sh.Title + ", per " + strings.TrimPrefix(sh.Unit, "ns/")
			}
			lines = append(lines, fmt.Sprintf("| %s | %s | %s | %.2f | %.2f |", name, lib.Name,
				num(perLib[lib.Name]), allocs[lib.Name], perLib[lib.Name]/perLib[sh.Ref]))
		}
	}
	fmt.Printf("peers benchmark, instructions (callgrind), %s, %s\n", start.UTC().Format("2006-01-02 15:04 MST"),
		time.Since(start).Round(time.Second))
	fmt.Printf("%s, %s\n\n", goVersion(), cpu())
	fmt.Println("| shape | library | instructions | allocs | ÷ bt |")
	fmt.Println("|---|---|---|---|---|")
	for _, l := range lines {
		fmt.Println(l)
	}
	return nil
}

// count runs one library's benchmark of a shape for n iterations under callgrind and
// returns the instructions of its timed loop and the benchmark's figures.
func count(bin string, sh *peers.Shape, lib string, n int) (float64, map[string]float64, error) {
	dir, err := os.MkdirTemp("", "peerbench-callgrind")
	if err != nil {
		return 0, nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("valgrind", "--tool=callgrind", "--toggle-collect=*peers_test.timed",
		"--callgrind-out-file="+filepath.Join(dir, "out"), bin)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1", "GOGC=off")
	out, err := runBench(cmd, sh, lib, fmt.Sprintf("%dx", n))
	if err != nil {
		return 0, nil, err
	}
	f, err := parse(out, sh, lib)
	if err != nil {
		return 0, nil, err
	}
	_, after, ok := strings.Cut(out, "Collected : ")
	if !ok {
		return 0, nil, fmt.Errorf("%s/%s: valgrind printed no count:\n%s", sh.Name, lib, out)
	}
	c, err := strconv.ParseFloat(strings.Fields(after)[0], 64)
	if err == nil && c == 0 {
		err = fmt.Errorf("%s/%s: callgrind counted nothing in the timed loop", sh.Name, lib)
	}
	return c, f, err
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// num prints a figure with at least three significant digits.
func num(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func goVersion() string {
	out, err := exec.Command("go", "version").Output()
	if err != nil {
		return "go version unknown"
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "go version ")
}

// cpu names the processor and counts the CPUs, from /proc/cpuinfo where there is one.
func cpu() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "CPU unknown"
	}
	model, n := "", 0
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(line, ":")
		switch k = strings.TrimSpace(k); {
		case !ok:
		case k == "processor":
			n++
		case k == "model name" && model == "":
			model = strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("%s × %d", model, n)
}

// loadAverage is the one-minute load average, or "?" where /proc/loadavg is missing.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(data))[0]
}
