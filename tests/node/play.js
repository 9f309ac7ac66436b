// Plays one match of each Parlor game over gRPC, as a Node client of the
// published contract would: the service and messages come from proto/ alone
// (loaded at run time with @grpc/proto-loader; no generated code), seat tokens
// travel as `authorization: Bearer <token>` metadata, and every move is one of
// the seat's listed legal actions, posted back unchanged.
//
//   node play.js <host:port> [seed]
//
// Prints one summary line per game and exits 0 when every match finished;
// exits 1 (with the error) otherwise.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');

// keepCase: the proto field names (match_id), as the .proto files spell them.
// oneofs: each oneof's name tells which member is set (an action's `game`).
// google/protobuf/{struct,timestamp}.proto come with proto-loader's protobufjs.
const definition = protoLoader.loadSync('parlor/v1/parlor.proto', {
  includeDirs: [PROTO_ROOT],
  keepCase: true,
  enums: String,
  longs: String,
  defaults: true,
  oneofs: true,
});
const parlor = grpc.loadPackageDefinition(definition).parlor.v1;

// A small seeded PRNG (mulberry32), so a run can be repeated.
function randomFrom(seed) {
  let state = 0;
  for (const ch of String(seed)) state = (Math.imul(state, 31) + ch.charCodeAt(0)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function call(client, method, request, token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  return new Promise((resolve, reject) => {
    client[method](request, metadata, { deadline: Date.now() + 10000 }, (error, reply) => {
      if (error) {
        error.message = `${method}: ${error.message}`;
        reject(error);
      } else {
        resolve(reply);
      }
    });
  });
}

// The gRPC status details name the stable code (google.rpc.ErrorInfo.reason);
// a client that does not decode them still has the status and the message.
async function playOne(client, game, random) {
  const match = await call(client, 'CreateMatch', { game: game.id, players: game.min_players });
  const tokens = [];
  for (let seat = 0; seat < game.min_players; seat += 1) {
    const joined = await call(client, 'JoinMatch', { match_id: match.match_id, name: `node ${seat}` });
    if (joined.seat !== seat) throw new Error(`joined seat ${joined.seat}, expected ${seat}`);
    tokens.push(joined.token);
  }
  let actions = 0;
  for (;;) {
    let moved = false;
    for (const token of tokens) {
      const legal = await call(client, 'ListLegalActions', { match_id: match.match_id }, token);
      if (legal.actions.length === 0) continue;
      const action = legal.actions[Math.floor(random() * legal.actions.length)];
      if (action.game !== game.id) throw new Error(`a legal action of ${action.game}, not ${game.id}`);
      const reply = await call(client, 'SubmitAction', {
        match_id: match.match_id, action, expected_version: legal.version,
      }, token);
      actions += 1;
      moved = true;
      if (reply.match.status === 'FINISHED') {
        const { scores, winners } = reply.match.result;
        return { game: game.id, players: game.min_players, actions, scores, winners };
      }
    }
    if (!moved) throw new Error(`${game.id}: nobody may act, yet the match is not finished`);
    if (actions > 20000) throw new Error(`${game.id}: no end after ${actions} actions`);
  }
}

async function main() {
  const [target, seed = 'node'] = process.argv.slice(2);
  if (!target) {
    console.error('usage: node play.js <host:port> [seed]');
    process.exit(2);
  }
  const client = new parlor.Parlor(target, grpc.credentials.createInsecure());
  const random = randomFrom(seed);
  const { games } = await call(client, 'ListGames', {});
  if (games.length === 0) throw new Error('ListGames returned no game');
  const started = Date.now();
  for (const game of games) {
    const done = await playOne(client, game, random);
    console.log(`${done.game}: ${done.players} players, ${done.actions} actions, `
                + `scores ${JSON.stringify(done.scores)}, winners ${JSON.stringify(done.winners)}`);
  }
  console.log(`played ${games.length} games in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  client.close();
}

main().catch((error) => {
  console.error(error.stack || String(error));
  process.exit(1);
});
