// `npm run build`: compile the shared core and the API, then bundle the web app.
import { buildWeb, compileTypeScript } from './lib.mjs';

compileTypeScript();
buildWeb();
