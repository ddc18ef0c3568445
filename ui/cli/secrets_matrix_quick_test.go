//go:build !heavy

package cli

// fullMatrix: the quick suite checks a sample of the matrix's cells (every
// form and every placement, each path); the heavy suite checks them all.
const fullMatrix = false
