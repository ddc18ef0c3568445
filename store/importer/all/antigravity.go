package all

import _ "github.com/recall-dev/recall/store/importer/antigravity" // registers the antigravity source
