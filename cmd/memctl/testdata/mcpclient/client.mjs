// Drives `memctl mcp` over stdio with the official TypeScript SDK, a client
// nobody here wrote: it lists the tools, calls every one (the SDK's client
// validates each structured result against the tool's declared output
// schema once listTools has run), and tells a story checking each answer.
// Usage: node client.mjs MEMCTL STORE
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [memctl, db] = process.argv.slice(2);
if (!memctl || !db) {
  console.error('usage: node client.mjs MEMCTL STORE');
  process.exit(2);
}

const transport = new StdioClientTransport({ command: memctl, args: ['--db', db, 'mcp'], stderr: 'inherit' });
const client = new Client({ name: 'memctl-ts-test', version: '1.0.0' });
await client.connect(transport);

let passed = 0;
let failed = 0;
async function step(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.stack || e}`);
  }
}

// call calls a tool that must succeed and returns its structured result,
// which the SDK has validated against the output schema.
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  assert.ok(!res.isError, `${name}: tool error: ${JSON.stringify(res.content)}`);
  assert.ok(res.structuredContent, `${name}: no structured content`);
  assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent, `${name}: the text is not the structured result`);
  return res.structuredContent;
}

// refused calls a tool that must refuse with a tool error saying want.
async function refused(name, args, want) {
  const res = await client.callTool({ name, arguments: args });
  assert.equal(res.isError, true, `${name}: no tool error: ${JSON.stringify(res)}`);
  const text = res.content.map((c) => c.text).join('\n');
  assert.ok(text.includes(want), `${name}: error ${JSON.stringify(text)}, want ${JSON.stringify(want)}`);
}

const called = new Set();
const tools = [
  'remember', 'recall', 'context', 'get', 'at', 'correct', 'retract', 'restore', 'pin', 'unpin',
  'forget', 'decisions', 'undo', 'conflicts', 'resolve', 'edges', 'entity', 'merge', 'unmerge',
];
const track = (name) => called.add(name);

await step('tools are listed with output schemas and annotations', async () => {
  const { tools: listed } = await client.listTools();
  assert.deepEqual(listed.map((t) => t.name).sort(), [...tools].sort());
  for (const t of listed) {
    assert.equal(t.outputSchema?.type, 'object', `${t.name}: output schema`);
    assert.equal(t.inputSchema.type, 'object', `${t.name}: input schema`);
    assert.equal(t.annotations?.openWorldHint, false, `${t.name}: openWorldHint`);
    assert.ok(t.description.length > 20, `${t.name}: description`);
    // What makes callTool check each structured result against the schema.
    assert.equal(typeof client.getToolOutputValidator(t.name), 'function', `${t.name}: no output validator`);
  }
  const byName = Object.fromEntries(listed.map((t) => [t.name, t]));
  assert.equal(byName.forget.annotations.destructiveHint, true);
  assert.equal(byName.recall.annotations.readOnlyHint, true);
  assert.equal(byName.remember.annotations.readOnlyHint, false);
  assert.deepEqual(byName.resolve.inputSchema.properties.keep.enum, ['new', 'existing', 'both']);
});

let contoso, fabrikam, update;
await step('remember adds a fact', async () => {
  track('remember');
  const r = await call('remember', { text: 'I work at Contoso.', source_ref: 'msg-1' });
  assert.equal(r.decision.action, 'add');
  assert.equal(r.fact.text, 'I work at Contoso.');
  assert.equal(r.fact.source, 'msg-1');
  assert.equal(r.replaced, null);
  contoso = r.fact.id;
});

await step('a correction that updates', async () => {
  const r = await call('remember', { text: 'I now work at Fabrikam; I moved from Contoso.' });
  assert.equal(r.decision.action, 'update');
  assert.equal(r.decision.target, contoso);
  assert.equal(r.replaced.id, contoso);
  assert.equal(r.replaced.state, 'superseded');
  assert.equal(r.replaced.superseded_by, r.fact.id);
  fabrikam = r.fact.id;
  update = r.decision.id;
});

await step('recall finds the current job, and the old one as of before', async () => {
  track('recall');
  let r = await call('recall', { query: 'Where do I work?' });
  assert.equal(r.facts[0].fact.id, fabrikam);
  const first = (await call('get', { id: contoso })).fact.recorded_at;
  r = await call('recall', { query: 'Where do I work?', known: first, history: true });
  assert.deepEqual(r.facts.map((h) => h.fact.id), [contoso]);
  assert.equal(r.facts[0].via, fabrikam);
  assert.equal(r.facts[0].versions.length, 2);
});

await step('context gives the prompt for a message', async () => {
  track('context');
  const r = await call('context', { for: 'Where do I work?' });
  assert.match(r.prompt, /Fabrikam/);
  assert.doesNotMatch(r.prompt, /I work at Contoso/);
  const p = await client.getPrompt({ name: 'memory_context', arguments: { message: 'Where do I work?' } });
  assert.equal(p.messages[0].content.text, r.prompt);
});

await step('get and at', async () => {
  track('get');
  track('at');
  const g = await call('get', { id: contoso });
  assert.equal(g.fact.state, 'superseded');
  assert.deepEqual(g.versions.map((f) => f.id), [contoso, fabrikam]);
  assert.deepEqual(g.events.map((e) => e.kind), ['recorded', 'superseded']);
  const a = await call('at', { known: g.fact.recorded_at });
  assert.deepEqual(a.facts.map((f) => f.id), [contoso]);
});

await step('undo reverses the update', async () => {
  track('undo');
  track('decisions');
  const u = await call('undo', { decision: update });
  assert.equal(u.decision.id, update);
  assert.ok(u.decision.undone_at);
  assert.equal((await call('get', { id: fabrikam })).fact.state, 'retracted');
  assert.equal((await call('get', { id: contoso })).fact.state, 'current');
  const d = await call('decisions', {});
  assert.deepEqual(d.decisions.map((x) => x.id), [update, update - 1]);
  await refused('undo', { decision: update }, 'already undone');
});

let northwind;
await step('correct, retract, restore, pin, unpin', async () => {
  for (const t of ['correct', 'retract', 'restore', 'pin', 'unpin']) track(t);
  const c = await call('correct', { id: contoso, text: 'I work at Northwind.' });
  assert.equal(c.replaced.id, contoso);
  northwind = c.fact.id;
  assert.equal((await call('retract', { id: northwind, reason: 'a test' })).fact.state, 'retracted');
  assert.equal((await call('restore', { id: northwind })).fact.state, 'current');
  assert.equal((await call('pin', { id: northwind })).fact.pinned, true);
  assert.equal((await call('unpin', { id: northwind })).fact.pinned, false);
});

await step('conflicts and resolve', async () => {
  track('conflicts');
  track('resolve');
  const lyon = (await call('remember', { text: 'I live in Lyon.' })).fact.id;
  await call('pin', { id: lyon });
  const r = await call('remember', { text: 'I live in Paris now.' });
  assert.equal(r.decision.action, 'add');
  assert.ok(r.conflicts.length > 0);
  assert.equal(r.conflicts[0].other, lyon);
  assert.match(r.conflicts[0].ask, /Lyon/);
  const cs = await call('conflicts', {});
  assert.ok(cs.conflicts.some((c) => c.id === r.conflicts[0].conflict && c.existing_fact.id === lyon));
  const s = await call('resolve', { conflict: r.conflicts[0].conflict, keep: 'both' });
  assert.equal(s.conflict.resolution, 'both');
  await call('conflicts', { all: true });
});

await step('edges, entity, merge, unmerge', async () => {
  for (const t of ['edges', 'entity', 'merge', 'unmerge']) track(t);
  await call('remember', { text: 'My sister works at Yandex.' });
  await call('remember', { text: 'My brother works at Яндекс.' });
  const m = await call('merge', { from: 'Яндекс', into: 'Yandex', reason: 'one company' });
  assert.equal(m.merge.state, 'active');
  const e = await call('edges', { object: 'Yandex' });
  assert.equal(e.edges.length, 2);
  assert.ok(e.edges.some((x) => x.object_aliases.includes('Яндекс')));
  const tl = await call('entity', { name: 'Yandex' });
  assert.ok(tl.edges.length >= 2 && tl.edges[0].known_from);
  assert.equal((await call('unmerge', { merge: m.merge.id })).merge.state, 'undone');
  await call('edges', { user_only: true, all: true, relation: 'works_at' });
});

await step('forget needs confirm, then erases', async () => {
  track('forget');
  await refused('forget', { id: northwind }, 'confirm');
  await refused('forget', { id: northwind, confirm: false }, 'confirm');
  const f = await call('forget', { id: northwind, confirm: true });
  assert.deepEqual(f.deleted, [northwind]);
  await refused('get', { id: northwind }, 'not found');
});

await step('bad calls are tool errors', async () => {
  await refused('no_such_tool', {}, 'unknown tool');
  await refused('remember', {}, 'text');
  await refused('remember', { text: 7 }, 'text');
  await refused('remember', { text: 'a\u001bb' }, 'control character');
  await refused('remember', { text: 'x'.repeat(601) }, 'too long');
  await refused('get', { id: 999999 }, 'not found');
});

await step('every tool was called', async () => {
  assert.deepEqual([...called].sort(), [...tools].sort());
});

await client.close();
console.log(`mcpclient: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
