package all

import _ "github.com/recall-dev/recall/store/importer/grokbuild" // registers the grok-build source
