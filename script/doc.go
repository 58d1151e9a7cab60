// Package script implements the scripting language of BehaviorTree.CPP 4.10
// (BT.CPP): the language of <Script code="...">, <ScriptCondition>, the
// _skipIf/_successIf/_failureIf/_while pre-conditions, the _onSuccess,
// _onFailure, _post and _onHalted post-conditions, and Precondition's "if".
// This comment is the language reference.
//
// # Using it
//
// A script goes through three steps. [Parse] turns the text into a [Script]:
// plain, immutable data that any number of goroutines and tree instances can
// share. [Script.Compile] binds it to an [Env] — every variable to a [Var]
// handle, every enum name to its value — and produces a [Program]. [Program.Run]
// runs it and returns the value of its last statement. An engine parses each
// script once per tree definition, compiles it once per tree instance and runs
// it on every tick; [Eval] does all three at once for one-off uses.
//
//	s, err := script.Parse("battery -= 0.5; battery < 20")
//	p, err := s.Compile(env)     // env implements script.Env over the blackboard
//	v, err := p.Run()            // every tick
//	low, err := v.Condition()
//
// The Env decides what a variable is. Names starting with '@' are passed to
// Env.Var as written; by convention "@x" is x in the root scope. The Var
// decides how an entry keeps its type (an integer entry accepting only
// integral numbers, and so on); the script decides what value to assign.
//
// # Lexical elements
//
// Blanks are space, tab, carriage return and line feed. There are no
// comments.
//
// An identifier is an ASCII letter, '_' or '@' followed by ASCII letters,
// digits and '_' ("@" alone is not a name). true and false are keywords.
//
// An integer literal is a sequence of decimal digits (leading zeros allowed:
// 007 is 7) or 0x / 0X followed by hexadecimal digits. It must fit in an
// int64. A real literal has a fraction, an exponent or both: 3.14, 1e-3,
// 2.5E+2. A number may not run into a letter or a dot: "65.", "3foo",
// "0x", "0x1F.5" and "1e" are errors, but "65..x" is 65 followed by the
// concatenation operator.
//
// A string literal is enclosed in single quotes and has no escapes; it may
// contain double quotes and line breaks but not a single quote. Double quotes
// do not delimit strings.
//
// The operators and punctuation are
//
//	:=  =  +=  -=  *=  /=  ?  :  ||  &&  ==  !=  <  >  <=  >=
//	|  ^  &  +  -  ..  *  /  !  ~  (  )  ;
//
// The longest operator wins: "x=-1" is x = -1, "a-=1" is a -= 1.
//
// # Grammar
//
// In EBNF, with the operator levels spelled out (a Pratt parser does the
// work; see the precedence table below):
//
//	Script      = Statement { Separator Statement } [ ";" { ";" } ] .
//	Separator   = ";" { ";" } | line break .
//	Statement   = Expr .
//	Expr        = Assignment | Conditional .
//	Assignment  = name AssignOp Expr .
//	AssignOp    = ":=" | "=" | "+=" | "-=" | "*=" | "/=" .
//	Conditional = Or [ "?" Expr ":" Conditional ] .
//	Or          = And { "||" And } .
//	And         = Compare { "&&" Compare } .
//	Compare     = BitOr { CompareOp BitOr } .
//	CompareOp   = "==" | "!=" | "<" | ">" | "<=" | ">=" .
//	BitOr       = BitAnd { ( "|" | "^" ) BitAnd } .
//	BitAnd      = Sum { "&" Sum } .
//	Sum         = Product { ( "+" | "-" | ".." ) Product } .
//	Product     = Unary { ( "*" | "/" ) Unary } .
//	Unary       = ( "-" | "!" | "~" ) Unary | Primary .
//	Primary     = int | real | string | "true" | "false" | name | "(" Expr ")" .
//
// The left side of an assignment must be a name (parentheses around it are
// allowed); "1 + x := 3" is a syntax error. The right side is a whole
// expression, so "a := b := 0" assigns both. The middle of a conditional is a
// whole expression too ("c ? x := 1 : 2" is valid); its else branch is not an
// assignment.
//
// # Limits
//
// An expression nests at most 500 levels deep; deeper is the error "expression
// nested too deeply". A level is a pair of parentheses, a unary operator, the
// right operand of a binary operator, the branches of a conditional or the
// right side of an assignment. A chain of operators that associate to the
// left is one level however long it is: 1 + 1 + … + 1, a && b && … && z and
// a < b < … < z may have as many terms as the script has room for (compiling
// and running them takes time and stack in proportion to the terms and to
// the nesting, not more).
//
// A script is one or more statements separated by ';' or line breaks; extra
// and trailing ';' are fine, a leading one is not, and a script with no
// statement is the error "empty script". An operator at the start of a line
// continues the statement above it.
//
// # Precedence
//
// From loosest to tightest; all binary operators of a level associate to the
// left except assignment and the conditional, which nest to the right:
//
//	level  operators                   notes
//	1      :=  =  +=  -=  *=  /=       right side is a whole expression
//	2      ?:                          a ? b : c ? d : e is a ? b : (c ? d : e)
//	3      ||
//	4      &&
//	5      ==  !=  <  >  <=  >=        chains: a < b < c is a < b && b < c
//	6      |  ^                        one level: a ^ b | c is (a ^ b) | c
//	7      &
//	8      +  -  ..                    one level: 'n=' .. 1 + 2 is an error
//	9      *  /
//	10     -  !  ~  (prefix)           -2 * 3 is (-2) * 3; !a == b is (!a) == b
//
// So "2 + 3 * 4" is 14, "1 + 2 & 3" is (1 + 2) & 3, "a == b | c" compares a
// with b | c, and "x > 0 && y > 0 || z" is ((x > 0) && (y > 0)) || z.
//
// # Values
//
// A [Value] has one of five kinds: [KindInt] (int64), [KindFloat] (float64),
// [KindBool], [KindString] and [KindNil], the value of a variable that exists
// but is empty. Integer literals, enum names and integer variables are Ints;
// every number an operator computes is a Float.
//
// BT.CPP has two kinds of numbers (int64 and double) and no booleans: true is
// the double 1.0, and a comparison gives 1.0 or 0.0. This package keeps real
// booleans — true, false, comparisons and ! && || give a Bool — and treats a
// Bool as 1 or 0 wherever BT.CPP would do arithmetic with it, so that the
// numbers left on the blackboard are the same: "true + 1" is 2, "-true" is -1.
//
// The display form of a value ([Value.String], used by ..) is decimal for an
// Int, the shortest exact decimal for a Float ("2.5", "3", "0.1", "1e+21"
// from 1e21 on and below 1e-6), "true" or "false" for a Bool.
//
// # Operators
//
// Arithmetic. + - * / take numbers (Int, Float, Bool) and give a Float, also
// for Ints: 7 / 2 is 3.5, 2 * 3 is 6.0, -x is a Float. This is IEEE double
// arithmetic, as in BT.CPP: 1 / 0 is +Inf (so 1 / 0 > 1000000 is true), -1 / 0
// is -Inf and 0 / 0 is NaN, which no comparison finds equal to anything; the
// display form of these is "+Inf", "-Inf" and "NaN". A minus sign is always
// this operator, so -1 is the Float -1.0.
// + also concatenates two strings. Any other combination with a
// string is an error ("operator - not allowed on strings").
//
// Concatenation. a .. b joins the display forms of any two values that are
// not Nil: 'n=' .. 42 is "n=42", 'd=' .. 2.5 is "d=2.5", 1 .. 2 is "12",
// 'ok=' .. true is "ok=true".
//
// A string built by + .. or += may be at most 1 MiB long; a longer result
// is an error, so that no script can exhaust memory.
//
// Bitwise. & | ^ and the prefix ~ need integers: an Int, a Bool (1/0) or a
// Float with an integral value; 2.5 & 1 is an error. The result is a Float,
// as every computed number: 5 & 3 is 1.0.
//
// Logic. ! && || take booleans and give a Bool. A number is true when it is
// not zero; a string is accepted when it spells a boolean — "true", "True",
// "TRUE", "1", "false", "False", "FALSE", "0" — which is how booleans arrive
// through subtree ports and string entries; any other string is an error.
// && and || short-circuit: the right side is evaluated only when the left
// side does not decide.
//
// Comparison. Two Ints compare exactly. Other numbers (Int, Float, Bool)
// compare as float64, with == and != tolerating an absolute difference up to
// the float32 epsilon (about 1.19e-7): 0.1 + 0.2 == 0.3 is true. Two strings
// compare bytewise. A string compared with a number is converted first: a
// boolean spelling gives 1 or 0, a registered enum name its value, otherwise
// it must be a decimal number ('3' == 3 is true); if it is none of these the
// comparison is an error. A chain a op b op c ... compares neighbours, reads
// each operand once and stops at the first false link without evaluating the
// rest.
//
// Conditional. c ? a : b evaluates c, then only the chosen branch. Here a
// string is true when it is not empty — so 'false' ? 1 : 2 is 1, unlike
// !'false' — and a number when it is not zero.
//
// Assignment. x := v creates x if it does not exist and stores v; x = v
// requires x to exist. x += v, -= *= /= require x to exist and hold a value:
// on numbers they compute a Float, on strings += concatenates; other
// combinations are errors. The existence check comes before the right side
// runs. The Var then enforces the entry's type (package bt's follows
// BT.CPP's blackboard): assigning 4.0 to an entry holding an integer stores 4,
// assigning 3.5 or '3.5' to it is an error, '12' stores 12, assigning 3 to an
// entry holding a string is an error, a string assigned to an entry of a
// user's type is converted by its UnmarshalText (BT.CPP's convertFromString),
// an Other value is copied as it is, and an entry that holds no value yet
// takes whatever comes first. The value of an assignment is what the variable
// holds afterwards (4, not 4.0).
//
// Nil. An operand that is an empty variable makes every operator fail with
// "left operand of + is not initialised" (or right, or "operand of -"), and
// so does assigning one. A script whose value is an empty variable returns a
// Nil Value.
//
// Conditions. [Value.Condition] is what an engine uses to turn the value of
// a ScriptCondition or a pre-condition into true or false, as BT.CPP 4.10
// casts it to bool: true and false, the Ints 0 and 1, and any Float (true
// unless it is zero) are accepted; any other Int ("implicit casting to bool is
// not allowed"), a String, an Other and Nil are errors. [Value.Truthy] gives
// the more lenient rules of ! && ||.
//
// # Names
//
// A name is looked up when the script is compiled: first as an enum
// ([Env.Enum]), which makes it a constant Int, then as a variable
// ([Env.Var]). An enum name therefore shadows a variable with the same name,
// and assigning to an enum name is a compile error. A variable need not
// exist at compile time; reading one that does not exist when the script runs
// is a runtime error. [Script.Names] lists every name a script mentions.
//
// # Errors
//
// [Parse] returns a [*SyntaxError] with the byte offset, the line and column
// and a message; its Error method adds the source line and a caret:
//
//	2:7: expected ';' or end of script, found 'charging'
//	      and charging
//	          ^
//
// [Script.Compile] returns a [*SyntaxError] for a name it cannot bind.
// [Program.Run] returns a [*RuntimeError] naming the script:
//
//	script "count = 1": the entry "count" does not exist; use := to create it
//
// A Var's own error is kept for errors.Is and errors.As. Nothing panics.
//
// # Implementation
//
// Compile produces code for a small register machine: each operator is one
// instruction whose operands are registers, constants or variables read in
// place, and && || ?: and comparison chains are forward jumps, fused into the
// comparison that decides them. Constant subexpressions (after enum names are
// resolved) are computed at compile time. That code is then lowered to what
// runs: a Go value per instruction, with its operands resolved, and for the
// parts that compute a value used once (an operand, a whole && || ?: or
// comparison chain) a tree of such values that returns the result directly,
// with no dispatch and no register: a + b > 3 && c == 'x' is one call tree.
// The two forms each do what the other cannot. The register code is flat and
// printable: constant folding and the fusing of jumps into comparisons work on
// it, the tests read it, and lowering needs all of it at once — which result
// is read once, and by which instruction; which jumps make up an && or a ?: —
// to decide what becomes one expression. The lowered form is what runs fast:
// Go values that call one another, with nothing left to decode, but it has no
// such view to give.
// A run executes each instruction at most once, so its cost is bounded by
// the script's length, and it allocates nothing unless it builds a new
// string (.., + on strings, or an error); a Var that loads an Other value
// allocates its box (see [Other]).
//
// The code depends on the Env only through the answers of Env.Enum. The
// first Compile of a Script builds it and keeps it; a later Compile whose
// Env gives the same answers reuses it and only binds the variables, which
// takes one allocation for a short script. Compile may be called from
// several goroutines at once. A Program keeps scratch registers, so one
// Program must not run in two goroutines at once; compile one per tree
// instance.
//
// # Differences from BT.CPP 4.10
//
// These are deliberate; the conformance cases do not depend on any of them.
//
//   - Booleans are a kind of their own (BT.CPP uses 1.0 and 0.0); they act
//     as 1/0 in arithmetic, so blackboard numbers agree.
//   - .. formats floats in the shortest form ('d=' .. 2.5 is "d=2.5", not
//     "d=2.500000"; infinities and NaN as "+Inf", "-Inf", "NaN", not "inf"
//     and "nan"), writes booleans as true/false, and concatenates two numbers
//     (BT.CPP yields an empty value).
//   - && and || short-circuit (BT.CPP evaluates both sides).
//   - Bitwise operators, ~ included, need integral operands (BT.CPP
//     truncates the operand of ~).
//   - ! && || take any number ("not zero") and accept boolean spellings in
//     strings (BT.CPP 4.10's && and || reject an int64 other than 0 or 1, all
//     three reject strings; newer BT.CPP accepts the spellings for ! only).
//   - String-to-number conversion in comparisons must consume the whole
//     string ('3abc' == 3 is an error, BT.CPP reads 3) and also accepts
//     True/TRUE/False/FALSE.
//   - Two Ints compare exactly, not through float64 (BT.CPP casts both to
//     double and rejects a loss of precision beyond 2^53).
//   - Two values of one type that is neither a number nor a string (Other)
//     compare for == and != as Go compares them; BT.CPP's comparison refuses
//     them ("Can't mix different types"). Their display form, for .., is
//     fmt's (BT.CPP cannot convert them to a string).
//   - The condition of ?: may be a string: true when not empty (BT.CPP
//     converts it to a number: '0' is false and 'abc' an error).
//   - Statements need ';' or a line break between them; BT.CPP accepts
//     "a := 1 b := 2".
//   - An integer literal that does not fit in int64 is an error (BT.CPP
//     makes it 0); so is a real literal that overflows float64.
//   - "@" alone is not a name, and assigning to an enum name or to something
//     that is not a name is reported when the script is parsed or compiled,
//     not when it runs.
//   - A failed := leaves no empty entry behind.
//   - Strings built by a script are limited to 1 MiB, and expressions nest at
//     most 500 levels (see Limits); BT.CPP has no limits.
package script
