package all

import _ "github.com/recall-dev/recall/store/importer/geminiapps" // registers the gemini-apps source
