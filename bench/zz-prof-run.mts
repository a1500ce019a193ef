import autocannon from 'autocannon';
import { refundHeaders, uniqueRefund } from './bench-process.js';
const r = uniqueRefund('PROF');
const kind = process.argv[2] ?? 'refund';
let round = 0;
const menu = () => JSON.stringify({ LocationId: 'loc-std-001', Items: Array.from({ length: 500 }, (_, i) => ({ Id: `itm-bench-${i}`, Name: `Bench item ${i}`, Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1000 + round * 7 + i }] })) }) + (round++, '');
const req = kind === 'menu' ? { path: '/v2/menu', method: 'PUT' as const, body: menu } : r;
const res = await autocannon({ url: `http://127.0.0.1:5250${req.path}`, connections: 4, amount: kind === 'menu' ? 1000 : 5000, headers: refundHeaders(), requests: [{ method: req.method, setupRequest: (q) => ({ ...q, body: req.body() }) }] });
console.log(res.requests.average, res.non2xx);
