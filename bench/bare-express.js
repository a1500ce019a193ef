// The baseline: bare Express 5 endpoints that parse JSON and answer 200, nothing else.
// BARE_EXPRESS_BORN=1: the same app, its requests and responses made by constructors whose prototypes are already the
// app's (as the sandbox's own server makes them, server/http-parser-errors.ts), so that the bench shows what that
// alone is worth to Express.
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
