//go:build heavy

package cli

// fullMatrix: the heavy suite checks every cell of the matrix.
const fullMatrix = true
