package all

import _ "github.com/recall-dev/recall/store/importer/openhands" // registers the openhands source
