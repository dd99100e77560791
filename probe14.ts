import * as chrono from 'chrono-node';
import { extractTimeRefs, localWhen } from './src/util/time.js';
const cases: [string,string,number][] = [
 ['last month I quit','2024-03-31T10:00:00Z',0],
 ['a month ago I quit','2024-03-31T10:00:00Z',0],
 ['three months ago I quit','2024-05-31T10:00:00Z',0],
 ['next month I go','2024-01-31T10:00:00Z',0],
 ['next month I go','2024-01-31T23:30:00-08:00',-480],
 ['in a month I go','2024-01-31T10:00:00Z',0],
 ['last year I quit','2024-02-29T10:00:00Z',0],
 ['next year I go','2024-02-29T10:00:00Z',0],
 ['this month I go','2024-02-29T10:00:00Z',0],
 ['2 years ago I quit','2024-02-29T10:00:00Z',0],
 ['next week','2024-03-10T10:00:00Z',0],
 ['last week','2024-03-10T10:00:00Z',0],
 ['this week','2024-03-10T10:00:00Z',0],
 ['I ran a marathon this weekend','2024-03-10T10:00:00Z',0],
 ['over the weekend','2024-03-10T10:00:00Z',0],
 ['last weekend','2024-03-10T10:00:00Z',0],
 ['next weekend','2024-03-10T10:00:00Z',0],
 ['2 weeks ago','2024-03-10T10:00:00Z',0],
 ['in 2 weeks','2024-03-10T10:00:00Z',0],
 ['The meeting is on Friday.','2024-03-10T10:00:00Z',0],
 ['My flight is on 3 March.','2024-03-10T10:00:00Z',0],
 ['Her birthday party is in October.','2024-03-10T10:00:00Z',0],
];
for (const [t,at,off] of cases) {
  const rs = chrono.parse(t, {instant:new Date(Date.parse(at)), timezone: off});
  const x = extractTimeRefs(t, Date.parse(at), off);
  console.log(t, at, '|', rs.map(r=>`${r.text} ${r.start.date().toISOString()} known=${JSON.stringify((r.start as any).knownValues)} implied=${JSON.stringify((r.start as any).impliedValues)} tags=${[...(r.tags?.()??[])]}`).join(' ; '), '=>', x.map(r=>localWhen(r.start,r.end,off)+' '+r.certainty).join(','));
}
