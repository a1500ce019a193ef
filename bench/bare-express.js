// The baseline: bare Express 5 endpoints that parse JSON and answer 200; BARE_EXPRESS_BORN=1 makes its requests with the app's prototypes, as the sandbox's server does.
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';

const app = express();
app.post('/v2/order/refund', express.json(), (_req, res) => {
  res.status(200).end();
});
app.put('/v2/menu', express.json(), (_req, res) => {
  res.status(200).end();
});

function bornWithPrototypes() {
  function Request(...args) {
    IncomingMessage.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(...args) {
    ServerResponse.apply(this, args);
  }
  Response.prototype = app.response;
  return { IncomingMessage: Request, ServerResponse: Response };
}

const server = createServer(process.env.BARE_EXPRESS_BORN === '1' ? bornWithPrototypes() : {}, app);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
