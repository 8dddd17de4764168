#!/usr/bin/env node
// In-memory dynalite for ddbsql's tests (started by scripts/test.sh and
// `make dynalite`).
//
//   node server.js [--host 127.0.0.1] [--port 0] [--ignore-stdin]
//
// Prints exactly one line, "LISTENING <port>", on stdout once the server
// accepts connections. Exits with status 0 on SIGTERM, SIGINT, SIGHUP and
// when its stdin reaches end of file (unless --ignore-stdin), so a test runner
// that dies without cleaning up still takes the server down with it: the
// runner holds the write end of our stdin and the kernel closes it.
//
// Tables are created, deleted and updated instantly (no CREATING/DELETING
// delay). Nothing is persisted.
'use strict'

const Module = require('module')

function parseArgs (argv) {
  const opts = { host: '127.0.0.1', port: 0, watchStdin: true }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const next = () => {
      if (i + 1 >= argv.length) usage('missing value for ' + a)
      return argv[++i]
    }
    if (a === '--host') opts.host = next()
    else if (a === '--port') opts.port = Number(next())
    else if (a === '--ignore-stdin') opts.watchStdin = false
    else usage('unknown argument ' + a)
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) usage('bad --port')
  return opts
}

function usage (msg) {
  process.stderr.write('server.js: ' + msg + '\nusage: node server.js [--host H] [--port N] [--ignore-stdin]\n')
  process.exit(2)
}

// loadDynalite requires dynalite. dynalite's in-memory store (memory-level)
// is pure JavaScript, but dynalite also requires `level` (for on-disk
// stores), which loads classic-level's native addon at require time. That
// addon ships prebuilt for the common platforms; where it is missing (or
// DDBSQL_DYNALITE_STUB_LEVEL=1 forces this path) `level` is replaced by a
// stub whose Level refuses to open, which in-memory mode never calls.
function loadDynalite () {
  if (process.env.DDBSQL_DYNALITE_STUB_LEVEL !== '1') {
    try {
      return require('dynalite')
    } catch (err) {
      if (!/classic-level|node-gyp-build|No native build|\.node\b/.test(String(err && err.stack))) throw err
      process.stderr.write('server.js: native LevelDB addon unavailable (' + err.message.split('\n')[0] + '); using in-memory store only\n')
      for (const k of Object.keys(require.cache)) delete require.cache[k]
    }
  }
  const dynaliteDir = require.resolve('dynalite')
  const levelPath = require.resolve('level', { paths: [dynaliteDir] })
  const stub = new Module(levelPath, module)
  stub.filename = levelPath
  stub.loaded = true
  stub.exports = {
    Level: class Level {
      constructor () {
        throw new Error('on-disk dynalite stores are not available in the ddbsql test server')
      }
    }
  }
  require.cache[levelPath] = stub
  return require('dynalite')
}

function main () {
  const opts = parseArgs(process.argv.slice(2))
  const dynalite = loadDynalite()
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })

  let stopping = false
  const stop = (why) => {
    if (stopping) return
    stopping = true
    if (process.env.DDBSQL_DYNALITE_VERBOSE === '1') process.stderr.write('server.js: stopping (' + why + ')\n')
    // In-memory only: nothing to flush, so do not wait for idle keep-alive
    // connections to drain.
    process.exit(0)
  }
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => stop(sig))

  if (opts.watchStdin) {
    process.stdin.on('end', () => stop('stdin closed'))
    process.stdin.on('close', () => stop('stdin closed'))
    process.stdin.on('error', () => stop('stdin error'))
    process.stdin.on('data', () => {}) // drain and ignore
    process.stdin.resume()
  }

  // dynalite's request handler throws when a client disconnects before it
  // answers (a cancelled statement, a timeout, an early close). One test's
  // abandoned request must not take the shared server down for every other
  // test, so such errors are logged and the server keeps serving.
  process.on('uncaughtException', (err) => {
    process.stderr.write('server.js: ignored error from an abandoned request: ' + (err && err.message) + '\n')
  })

  server.on('error', (err) => {
    process.stderr.write('server.js: ' + err.message + '\n')
    process.exit(1)
  })
  server.listen(opts.port, opts.host, () => {
    process.stdout.write('LISTENING ' + server.address().port + '\n')
  })
}

main()
