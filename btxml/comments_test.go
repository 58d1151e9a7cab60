package btxml

import (
	"strings"
	"testing"
)

// texts lists the texts of comments.
func texts(list []Comment) string {
	var out []string
	for _, c := range list {
		out = append(out, c.Text)
	}
	return strings.Join(out, "|")
}

func TestCommentPlaces(t *testing.T) {
	d, err := Parse("c.xml", []byte("<!--a-->\r\n<root>\r\n<BehaviorTree ID=\"T\">\r\n"+
		"<S><A/> <!--b--> <!--c-->\r\n<!--d--> <!--e-->\r\n<B/><!--f\r\ng--></S>"+
		"</BehaviorTree></root>"))
	if err != nil {
		t.Fatal(err)
	}
	s := d.Trees[0].Root
	a, b := s.Children[0], s.Children[1]
	for _, tc := range []struct{ what, got, want string }{
		{"document before", texts(d.Comments.Before), "a"},
		// c follows b on the line where A ends; e follows d, which is on a line of its own.
		{"A after", texts(a.Comments.After), "b|c"},
		{"B before", texts(b.Comments.Before), "d|e"},
		{"B after, line ends made LF", texts(b.Comments.After), "f\ng"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if p := b.Comments.After[0].Pos; p.String() != "c.xml:6:5" {
		t.Errorf("position %s", p)
	}
	if s.Comments != nil || a.Comments.Before != nil {
		t.Errorf("stray comments: %+v %+v", s.Comments, a.Comments)
	}
}

// A comment XML cannot carry (tinyxml2 reads it) is dropped with a note, so that
// whatever Parse accepts can be written.
func TestCommentWithControlCharacter(t *testing.T) {
	d, err := Parse("c.xml", []byte("<root><!--x\x01--><BehaviorTree ID=\"T\"><A/></BehaviorTree></root>"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Notes) != 1 || d.Notes[0].String() != "c.xml:1:7: comment dropped: it holds the character U+0001, which XML does not allow" {
		t.Errorf("notes %v", d.Notes)
	}
	if d.Comments != nil || d.Trees[0].Comments != nil {
		t.Errorf("the comment was kept")
	}
}
