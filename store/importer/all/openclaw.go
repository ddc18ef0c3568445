package all

import _ "github.com/recall-dev/recall/store/importer/openclaw" // registers the openclaw source
