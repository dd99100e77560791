import { renderSystemOneTable } from '../src/bench/system-one.js';
console.log(renderSystemOneTable({ source: 'x', rows: [] }));
