package all

import _ "github.com/recall-dev/recall/store/importer/amazonq" // registers the amazon-q source
