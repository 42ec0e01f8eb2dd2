// `npm run build`: install and build everything that `npm start` serves.
import { prepare } from './lib.mjs';

prepare();
console.log('Сборка готова.');
