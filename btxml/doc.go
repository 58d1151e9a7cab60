// Package btxml reads and writes BehaviorTree.CPP XML (formats 3 and 4) as
// plain data.
//
// Parse turns one file into a Document: its trees as Element nodes, its
// includes and its TreeNodesModel entries, with a position on every element
// and attribute. Load does the same and follows <include> through an fs.FS.
// Write writes a Document back as canonical XML, WriteModels writes a
// TreeNodesModel catalogue, and Upgrade rewrites format 3 to format 4.
//
// The package knows nothing of node types or ticking. Whether a node ID is
// registered, which ports it has and how many children it takes is the
// engine's business (package bt); it reports its errors at the positions kept
// here. btxml checks what the XML alone tells:
//
//   - the top element is <root>; its children are <include>, <BehaviorTree>
//     and at most one <TreeNodesModel>; anything else is an error;
//   - <BehaviorTree> has exactly one child element, and an ID unless it is
//     the only tree of its file (then Tree.ID is "" and the engine names it;
//     BehaviorTree.CPP uses "BehaviorTree_<n>");
//   - a node is written <MyNode .../> (compact) or <Action ID="MyNode" .../>
//     (explicit, also Condition, Control, Decorator and SubTree); the
//     explicit form needs an ID attribute and the compact one may not have
//     one; a subtree reference is always <SubTree ID="TreeID" .../>;
//   - tree and model IDs obey BehaviorTree.CPP 4.10's name rules (ValidName),
//     and the ports of a <SubTree> entry of TreeNodesModel its port-name rules
//     (ValidPortName: no "goal.x", "port name", "port<T>", "2nd", "ID" …);
//     the ports of node types' entries are checked by the engine when it
//     registers them;
//   - tree IDs are unique, and so are model IDs (after Load: models repeated
//     identically in several files, as Groot2 writes them, are merged;
//     different ones are an error);
//   - main_tree_to_execute names a tree (checked by Load, and by Parse when
//     the file has no includes).
//
// Every error has a position, and Parse and Load report all the errors they
// find as an ErrorList sorted by position ("file:line:col: message", at most
// 100). XML syntax errors and exceeded limits stop the parse at the first
// one; structural errors do not.
//
// Inside a TreeNodesModel entry of a node type, what BehaviorTree.CPP does
// not define is a Note of the Document, not an error: BehaviorTree.CPP does
// not read these entries at all, and the models files in use have such
// things (Nav2's has <bidirectional_port>). An element <x_port> is read as a
// port of unknown direction x (PortModel.Dir), which Write writes back as it
// was; any other unknown element is skipped. A port may say required="true"
// (or "false"), which BehaviorTree.CPP neither writes nor reads: bt writes it
// for the ports a Go program requires, so that a tree checked against the
// models is refused for a missing port as the program refuses it.
//
// # Positions
//
// Pos.Line and Pos.Col are 1-based. Col counts Unicode characters, not bytes
// and not UTF-16 units: a tab is one column, "é" and "漢" are one column each.
// A UTF-8 byte order mark is skipped and takes no column. CR LF and a lone CR
// end a line like LF. An element's position is that of its '<', an
// attribute's that of its name, an attribute value's that of the first
// character after the opening quote; multi-line tags are no special case.
// Element.IDPos is where the node type is written: the tag name of the
// compact form, the ID value of the explicit form.
//
// # Values and text
//
// Attribute values are decoded: the five predefined entities (&lt; &gt; &amp;
// &quot; &apos;) and character references (&#10; &#x41;) are replaced, and
// CR LF and lone CRs become LF, as tinyxml2 (BehaviorTree.CPP's parser) does.
// Unlike the XML specification, and like tinyxml2, newlines and tabs in a
// value are kept, so multi-line scripts stay multi-line. Port and model
// descriptions are the element's text (CDATA allowed), with leading and
// trailing white space removed.
//
// Real trees are written for tinyxml2, which reads more than XML allows; so
// does btxml, with a Note at the position of each (one per value and kind):
//
//   - a raw '<' in an attribute value is taken as it is (_skipIf="A<2",
//     code="x < 25");
//   - an '&' that starts no reference — not followed by a name or '#' and
//     letters or digits, and ';' — is taken as it is (code="a && b");
//   - text inside <root>, <BehaviorTree>, node elements and the models is
//     ignored (a typo, or what a forgotten quote leaves).
//
// What would be ambiguous stays an error: an '&' that looks like a
// reference must be one of those above (tinyxml2 keeps "&nbsp;" as it is),
// and a '<' followed by a name, '/', '!' or '?' is an error where a value
// that runs on past a missing closing quote has one — at the start of the
// value or of a line in it, or after a '>' — since that value would swallow
// the markup after it (tinyxml2 reads it as the value, and the error, if
// any, comes later). Write escapes what it writes, so its output is XML.
//
// # Formats
//
// Document.Format is 4 for BTCPP_format="4" and 3 for BTCPP_format="3"; other
// values are an error. Without the attribute, BehaviorTree.CPP 4 reads the
// file as format 4 after a warning; btxml records 3 if the file uses a
// construct that only format 3 has — SequenceStar, FallbackStar,
// RetryUntilSuccesful, BlackboardCheckInt/Double/String, <SubTreePlus>,
// __shared_blackboard, __autoremap, <remap> inside <SubTree>, Parallel's
// success_threshold/failure_threshold, a ${key} value — and 4 otherwise, so
// old Nav2 trees that use none of them read as format 4, as in BehaviorTree.CPP.
// <SubTreePlus> in a format-4 file is an error. Upgrade rewrites the format-3
// trees of a document to format 4 and returns Notes on what it could not
// convert faithfully; the engine should upgrade format-3 documents before
// building them.
//
// # Includes
//
// Load reads name from fsys, then each <include path="..">, recursively. A
// relative path is resolved against the directory of the including file,
// inside fsys (path.Join); an absolute path or one that leaves fsys ("../x")
// is an error ("include outside the root"), and so is a backslash. Cycles are
// an error naming the chain; a file included twice by different routes is
// read once. A missing file is an error at the <include>. ros_pkg includes
// are not supported (an error): give Load a file system in which the path
// alone finds the file. The trees and models of included files are added to
// the Document before the file's own (BehaviorTree.CPP's order), each with
// its own Pos.File; Document.Includes keeps the includes as written.
//
// # Limits
//
// Parse and Load never panic, and their time and memory are linear in the
// input. Limits bounds the input; a zero field takes its default:
//
//	MaxBytes         64 MiB     input size (for Load: all files together)
//	MaxDepth         256        tree nesting (BehaviorTree.CPP's limit)
//	MaxAttrLen       1 MiB      one attribute value or text
//	MaxAttrs         256        attributes of one element
//	MaxNodes         1,000,000  elements, attributes and comments (for Load: all files)
//	MaxIncludeDepth  32         include nesting
//	MaxIncludes      1024       included files
//
// MaxNodes (which counts comments too) bounds memory: a Document costs about
// 120 bytes per element, 64 per attribute and 40 per comment, however short
// they are written, plus a copy of the input. A DOCTYPE is rejected
// outright, so entity expansion ("billion laughs") and external entities
// cannot happen; so are UTF-16 and encodings other than UTF-8. At most 100
// errors are reported.
//
// # Comments
//
// Comments are kept in the Document, on the part they were written next to
// (Comments, on Document, Tree, Element, Include, Model, PortModel and the
// TreeNodesModel as Document.ModelsComments): Before holds those on the lines
// before an element (after its previous sibling or its parent's start tag),
// After those that start on the line where it ends, Inside those after its
// last child. The comments before <root> and after </root> are the
// Document's Before and After. Write puts each back in its place, so that a
// file's header comment, the comment above a node and the one after it on
// its line survive Parse and Write, and so also bt convert. What is not kept:
// comments inside text (a port's description, <description>), inside
// <MetadataFields> and inside elements skipped after an error; a comment
// after a start tag on the same line, which Write puts on the next line; the
// comments before <description> or <MetadataFields>, which Write puts at the
// end of the model; and with Load, the Document-level comments of included
// files. Blank lines, indentation and the XML declaration are not kept
// either: Write has its own layout.
//
// # Writing
//
// Write produces BehaviorTree.CPP's layout: four-space indentation, one
// element per line, attributes in stored order, self-closing empty elements,
// compact node form where possible. Values escape &, <, > and " and write
// newlines, tabs and carriage returns as references. The output is
// deterministic, Write is idempotent (Write(Parse(Write(d))) = Write(d)), and
// Parse(Write(d)) equals d apart from positions, notes, the unknown elements
// of models that were skipped, and the explicit node forms that became
// compact. Comments are written as <!--Text--> on their own lines, indented
// like the element they belong to, or after it on its last line.
//
// # Implementation
//
// The tokenizer is hand-written for the XML subset BehaviorTree.CPP files use
// (elements, attributes, character data, CDATA, comments, processing
// instructions). encoding/xml was the alternative: it reports only the offset
// of whole tokens, so attribute positions would need a second scan of every
// tag; it allocates per token and per attribute; and it accepts DOCTYPE and
// custom entities that this package must refuse anyway. The scanner works
// on one string copy of the input, so names and values without references
// are substrings of it; decoded values are packed into shared buffers;
// elements, attributes and child lists are carved from a few large slices.
// The scanner counts line ends as it passes them, so a position costs a
// subtraction in an ASCII file (a rune count since the last one otherwise),
// and it skips indentation and scans attribute values eight bytes at a time.
// A Pos is 24 bytes, and Attr.ValuePos and Element.IDPos are kept as a line
// and a column without the file name. What remains is the Document itself,
// whose allocation and garbage collection are about half of Parse's time.
//
// Write checks and measures the document in a dry run, then streams it
// through a bufio.Writer, so it allocates little whatever the size.
package btxml
