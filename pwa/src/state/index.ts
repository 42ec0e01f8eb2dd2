/** The client-side stores, named as in spec 02 §3 "Client-side state". */
export { page } from './page';
export { markup } from './markup';
export { reportGenerator } from './reportGenerator';
export { structures } from './structures';
export { operations } from './operations';
export { structureData } from './structureData';
export { projectShifts } from './projectShifts';
export { projectParameters } from './projectParameters';
export { login } from './login';
export { notifications } from './notifications';
