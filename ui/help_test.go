package ui

import (
	"strings"
	"testing"
)

// TestHelpScrollsWhenTaller: at 80x24 the help is taller than the screen;
// the movement keys (even j/k typed together, from the search box) scroll
// it to its last line, the last screen line says how, other letters do
// nothing, and q (or esc) closes it without acting or typing.
func TestHelpScrollsWhenTaller(t *testing.T) {
	last := "took." // the end of helpNotes
	d := newDriver(t, demoBackend(), 80, 24)
	d.key("f1")
	if !d.m.showHelp {
		t.Fatal("f1 did not open the help")
	}
	if strings.Contains(d.screen(), last) {
		t.Fatalf("the whole help fits 80x24; this test needs a taller one:\n%s", d.screen())
	}
	if !strings.Contains(d.screen(), "g/G scroll") {
		t.Errorf("no scroll hint on a help taller than the screen:\n%s", d.screen())
	}
	d.key("jjj") // batched runes, search box focused
	if d.m.helpScroll.offset != 3 || !d.m.showHelp || d.m.input.Value() != "" {
		t.Fatalf("jjj: offset %d (want 3), help open %v, search box %q", d.m.helpScroll.offset, d.m.showHelp, d.m.input.Value())
	}
	d.key("end")
	if !strings.Contains(d.screen(), last) {
		t.Errorf("end did not reach the help's last line %q:\n%s", last, d.screen())
	}
	d.key("pgup")
	d.key("home")
	if d.m.helpScroll.offset != 0 {
		t.Errorf("home: offset %d", d.m.helpScroll.offset)
	}
	d.key("x")
	if !d.m.showHelp || d.m.input.Value() != "" {
		t.Fatalf("x in the help: open %v, search box %q; want nothing", d.m.showHelp, d.m.input.Value())
	}
	d.key("q")
	if d.m.showHelp || d.m.quitting || d.m.input.Value() != "" {
		t.Errorf("q in the help: open %v, quitting %v, search box %q; want closed, nothing else", d.m.showHelp, d.m.quitting, d.m.input.Value())
	}
	if lines := strings.Split(d.screen(), "\n"); len(lines) != 24 {
		t.Errorf("%d lines after closing the help", len(lines))
	}
	d = newDriver(t, demoBackend(), 200, 60)
	d.key("f1")
	if s := d.screen(); !strings.Contains(s, last) || strings.Contains(s, "g/G scroll") {
		t.Errorf("at 200x60 the help fits: no scroll hint wanted, all of it shown:\n%s", s)
	}
}
