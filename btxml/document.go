package btxml

// Document is one BehaviorTree.CPP XML file (after Load: a file and everything
// it includes). It is plain data: nothing in it refers to node types.
type Document struct {
	File string
	// Format is 4 or 3: the BTCPP_format attribute, or, when that is absent,
	// 3 if the document uses a construct that only format 3 has and 4
	// otherwise (see the package documentation). After Load it is the format
	// of the top file; each Tree records the format of its own file.
	Format int
	// MainTree is the main_tree_to_execute attribute ("" if absent), and
	// MainTreePos the position of its value.
	MainTree    string
	MainTreePos Pos
	// Trees are the <BehaviorTree> elements. After Load, the trees of included
	// files come first (in include order, depth first), then the file's own.
	Trees []*Tree
	// Models are the entries of <TreeNodesModel>, merged from includes after
	// Load in the same order as Trees.
	Models []*Model
	// Comments are the comments before <root> (Before), after </root>
	// (After), and in <root> after its last child (Inside); nil if none.
	// After Load, those of the top file.
	Comments *Comments
	// ModelsComments are the comments around and inside <TreeNodesModel>
	// (those before a model are the model's); nil if none.
	ModelsComments *Comments
	// Includes are the <include> elements of this file, as written. Load
	// keeps them although their trees and models are now part of Trees and
	// Models: set Includes to nil before Write to get a self-contained file.
	Includes []*Include
	// Attrs are the other attributes of <root> (for example xmlns:xsi), in
	// document order.
	Attrs []Attr
	// Notes are remarks on what the file says that is accepted but may not
	// mean what its author intended: elements inside a TreeNodesModel entry
	// that BehaviorTree.CPP does not define (it does not read the entries of
	// node types at all). After Load they include the notes of the included
	// files. At most 100 are kept.
	Notes []Note
	Pos   Pos // of <root>
}

// A Note is a remark on a document, at a position: something Parse accepted
// although BehaviorTree.CPP would ignore it, or something Upgrade could not
// convert or converted with a change of behaviour.
type Note struct {
	Pos Pos
	Msg string
}

// String returns "file:line:col: msg".
func (n Note) String() string { return (&Error{Pos: n.Pos, Msg: n.Msg}).Error() }

// Tree finds a tree by ID; nil if there is none.
func (d *Document) Tree(id string) *Tree {
	for _, t := range d.Trees {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// Model finds a model by ID; nil if there is none.
func (d *Document) Model(id string) *Model {
	for _, m := range d.Models {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// Tree is a <BehaviorTree> element.
type Tree struct {
	// ID is the ID attribute. It is "" when the attribute is absent, which
	// BehaviorTree.CPP only allows in a file with a single tree: the engine
	// chooses the name (BehaviorTree.CPP uses "BehaviorTree_<n>").
	ID     string
	Root   *Element // the single child element; nil if it had none
	Attrs  []Attr   // attributes other than ID, e.g. _fullpath
	Format int      // format of the file the tree comes from
	// Comments are the comments before the tree and after its root node
	// (those before the root node are the node's); nil if none.
	Comments *Comments
	Pos      Pos
}

// Element is a node element of a tree.
//
// BehaviorTree.CPP spells a node in two ways: compact, <Sequence name="x">,
// where the tag is the node type, and explicit, <Control ID="Sequence">, where
// the tag is one of the kinds Action, Condition, Control, Decorator and
// SubTree and the ID attribute is the type. Both give ID "Sequence"; Tag
// records the spelling. A subtree reference is always explicit:
// <SubTree ID="Walk" target="{goal}"/> has Tag "SubTree" and ID "Walk", the ID
// of the tree it instantiates, and its other attributes are the remappings.
type Element struct {
	Tag string // as written
	ID  string // node type, or the subtree's tree ID when Tag is "SubTree"
	// Attrs are the attributes in document order, without the explicit
	// form's ID attribute.
	Attrs    []Attr
	Children []*Element
	// Comments are the comments before the element, after it on its last
	// line, and inside it after its last child; nil if none.
	Comments *Comments
	Pos      Pos // of '<'
	// idLine and idCol are IDPos, in Pos.File.
	idLine, idCol int32
}

// IDPos returns where the type name is written: the tag name in the compact
// form, the value of the ID attribute in the explicit form; the zero Pos if
// it is not known. (An Element keeps it as a line and a column in
// Pos.File: a Document has many elements.)
func (e *Element) IDPos() Pos { return e.Pos.at(e.idLine, e.idCol) }

// Attr finds an attribute by name.
func (e *Element) Attr(name string) (Attr, bool) { return findAttr(e.Attrs, name) }

// Explicit reports whether the element uses the explicit form: its tag is one
// of Action, Condition, Control, Decorator and SubTree.
func (e *Element) Explicit() bool { return isKind(e.Tag) }

func findAttr(attrs []Attr, name string) (Attr, bool) {
	if i := attrIndex(attrs, name); i >= 0 {
		return attrs[i], true
	}
	return Attr{}, false
}

// isKind reports whether s names a node kind: the tags of the explicit form
// and of <TreeNodesModel> entries.
func isKind(s string) bool {
	switch s {
	case "Action", "Condition", "Control", "Decorator", "SubTree":
		return true
	}
	return false
}

// Attr is an attribute. Value is decoded: entity and character references
// are replaced and line ends (CR LF, CR) become LF; other newlines and tabs
// are kept as written.
type Attr struct {
	Name, Value string
	Pos         Pos // of the first character of the name
	// valueLine and valueCol are ValuePos, in Pos.File.
	valueLine, valueCol int32
}

// ValuePos returns the position of the first character after the opening
// quote; the zero Pos if it is not known. (An Attr keeps it as a line and a
// column in Pos.File: a Document has many attributes.)
func (a Attr) ValuePos() Pos { return a.Pos.at(a.valueLine, a.valueCol) }

// Include is an <include path=".." ros_pkg=".."/> element.
type Include struct {
	Path, RosPkg string
	Comments     *Comments // before and after the element; nil if none
	Pos          Pos
}

// Comment is an XML comment, <!--Text-->.
type Comment struct {
	Text string // between "<!--" and "-->", as written but for line ends, which are LF
	Pos  Pos    // of "<!--"
}

// Comments are the XML comments written around and inside an element, kept
// so that Write puts them back where they were: on the lines before the
// element, on the line where it ends, or inside it after its last child.
type Comments struct {
	// Before are the comments between the element and what precedes it: its
	// previous sibling or its parent's start tag (the comments of a file's
	// first lines are its Document's).
	Before []Comment
	// After are the comments that start on the line where the element ends,
	// as in <Stop/> <!-- why -->.
	After []Comment
	// Inside are the comments inside the element after its last child, or
	// all of them if it has none.
	Inside []Comment
}

// Model is an entry of <TreeNodesModel>:
//
//	<Action ID="Move">
//	    <input_port name="goal" type="Pose2D">where to go</input_port>
//	    <output_port name="distance" type="double"/>
//	    <MetadataFields>
//	        <Metadata group="motion"/>
//	    </MetadataFields>
//	</Action>
type Model struct {
	Kind  string // Action, Condition, Control, Decorator or SubTree
	ID    string
	Ports []PortModel // in document order
	// Metadata holds the attributes of the <Metadata> elements of
	// <MetadataFields>, in document order.
	Metadata []Attr
	// Description is the text of a <description> child (the element
	// BehaviorTree.CPP's XSD allows in a model); "" if absent.
	Description string
	// Attrs are the model element's other attributes (Groot2 writes
	// editable="true" on SubTree models), in document order.
	Attrs []Attr
	// Comments are the comments before the model, after it on its last line,
	// and inside it after its last port (also those written next to its
	// <description> and <MetadataFields>); nil if none.
	Comments *Comments
	Pos      Pos
}

// Port directions, as in <input_port>, <output_port> and <inout_port>.
const (
	DirInput  = "input"
	DirOutput = "output"
	DirInOut  = "inout"
)

// PortModel is a port of a Model.
type PortModel struct {
	// Dir is DirInput, DirOutput or DirInOut, or for an element <x_port> that
	// BehaviorTree.CPP does not define (Nav2 writes <bidirectional_port>), x:
	// the direction is then unknown, and Write writes the element back as it
	// was.
	Dir        string
	Name       string
	Type       string // "" if absent
	Default    string
	HasDefault bool // a default attribute was written (it may be "")
	// Required is required="true": a node that does not set the port is an error.
	// BehaviorTree.CPP neither writes nor reads it (it ignores the attribute); bt
	// writes it for the ports a Go program requires, so that a tree checked
	// against the models fails as it would when the program loads it.
	Required    bool
	Description string
	Comments    *Comments // before the port and after it on its line (not Inside); nil if none
	Pos         Pos
}
