package all

import _ "github.com/recall-dev/recall/store/importer/amp" // registers the amp source
