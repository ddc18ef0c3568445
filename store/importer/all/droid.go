package all

import _ "github.com/recall-dev/recall/store/importer/droid" // registers the droid source
