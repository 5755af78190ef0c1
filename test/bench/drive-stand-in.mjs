// A Google Drive v3 stand-in for the benchmarks (`node -e`, a process of its own): one file, FILE_ID, served
// from the file FILE on disk. Used by bench:import and bench:desktop.
/** Drive v3's two calls for one file: metadata, and the bytes with Range (206), from disk. */
export const DRIVE_STAND_IN = `
  import { createServer } from 'node:http';
  import { createReadStream } from 'node:fs';
  const size = Number(process.env.SIZE);
  createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/ready') { res.end('ok'); return; }
    if (url.pathname !== '/drive/v3/files/' + process.env.FILE_ID) { res.statusCode = 404; res.end('{}'); return; }
    if (url.searchParams.get('alt') !== 'media') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: process.env.FILE_ID, name: 'keynote.mov', size: String(size), mimeType: 'video/quicktime' }));
      return;
    }
    const m = /^bytes=(\\d+)-(\\d*)$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    const end = m && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
    res.writeHead(m ? 206 : 200, {
      'content-type': 'video/quicktime',
      'content-length': String(end - start + 1),
      ...(m ? { 'content-range': 'bytes ' + start + '-' + end + '/' + size } : {}),
    });
    createReadStream(process.env.FILE, { start, end }).pipe(res);
  }).listen(Number(process.env.PORT), '127.0.0.1');`;
