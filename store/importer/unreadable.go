package importer

// Unreadable is implemented by sources whose agent keeps its history where
// recall can find it but not read it (Windsurf encrypts its Cascade
// conversations). `recall import` and `recall watch` do not import its
// files: they say what was found and why it cannot be read, instead of
// saying nothing.
type Unreadable interface {
	// Unreadable is one line naming what files hold and why recall cannot
	// read it.
	Unreadable(files []string) string
}
