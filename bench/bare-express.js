// The baseline: bare Express 5 endpoints that parse JSON and answer 200, nothing else.
import express from 'express';

const app = express();
app.post('/v2/order/refund', express.json(), (_req, res) => {
  res.status(200).end();
});
app.put('/v2/menu', express.json(), (_req, res) => {
  res.status(200).end();
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
