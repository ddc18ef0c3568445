package all

import _ "github.com/recall-dev/recall/store/importer/goose" // registers the goose source
