// Package all links every source under store/importer into the binary.
//
// Sources register themselves in init; a program that imports this package
// gets all of them. Each source has its own file here holding one blank
// import, so adding a source never edits a line another source touched.
package all
