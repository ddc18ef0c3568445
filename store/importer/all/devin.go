package all

import _ "github.com/recall-dev/recall/store/importer/devin" // registers the devin source
