// The page's worker: the costly step of one chart (sampling, herds, storms, the survival map's
// rows) off the main thread; see worker-serve.js for what it answers.
import { serve } from './worker-serve.js';

serve();
