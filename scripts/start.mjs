// `npm start`: builds dist/ if needed, then runs the server in this process. One script, so npm
// prints one banner above the server's first lines, not one per lifecycle script.
import './build-if-needed.mjs';

await import('../dist/main.js');
