/**
 * A WordPress REST API stand-in for the posts benchmark: `GET /wp-json/wp/v2/posts` answers a page
 * of realistic-looking posts with X-WP-Total headers. Started as its own process by bench/run.ts.
 */
import { createServer } from 'node:http';

const posts = Array.from({ length: 5 }, (_, i) => ({
  id: 100 + i,
  date: `2026-11-${String(10 + i).padStart(2, '0')}T09:00:00`,
  slug: `post-${100 + i}`,
  status: 'publish',
  link: `https://blog.example.com/post-${100 + i}/`,
  title: { rendered: `How we ship websites that load fast, part ${i + 1}` },
  excerpt: {
    rendered: `<p>Performance budgets, image pipelines and what we measure before launch (${i + 1}).</p>\n`,
  },
  author: 3,
  featured_media: 0,
  categories: [2],
  tags: [1, 4],
}));
const body = JSON.stringify(posts);

const server = createServer((req, res) => {
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"OK"}');
    return;
  }
  if (req.url?.startsWith('/wp-json/wp/v2/posts')) {
    res.writeHead(200, {
      'content-type': 'application/json; charset=UTF-8',
      'x-wp-total': '42',
      'x-wp-totalpages': '9',
    });
    res.end(body);
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"code":"rest_no_route"}');
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', port: typeof address === 'object' ? address?.port : 0 }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
