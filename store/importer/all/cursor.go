package all

import _ "github.com/recall-dev/recall/store/importer/cursor" // registers the cursor source
