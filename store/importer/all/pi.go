package all

import _ "github.com/recall-dev/recall/store/importer/pi" // registers the pi and omp sources
