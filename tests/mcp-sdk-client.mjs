// tests/mcp-sdk-client.mjs -- the official MCP TypeScript SDK client
// (@modelcontextprotocol/sdk, pinned in tests/package.json) against
// weft's /mcp over Streamable HTTP: connect, list the tools, call each
// against the bundled data and check the results (the SDK also checks
// every structuredContent against the tool's outputSchema), read the
// resources, end the session.  TAP on stdout; run by
// tests/integration/t_mcp_sdk.sh with WEFT_URL set.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const base = process.env.WEFT_URL;
let n = 0;
let failed = 0;
function ok(cond, what, diag) {
  n++;
  console.log(`${cond ? "" : "not "}ok ${n} - ${what}`);
  if (!cond) {
    failed++;
    if (diag !== undefined)
      console.log(`#   ${String(diag).slice(0, 400).replace(/\n/g, "\n#   ")}`);
  }
}
const isUrl = (u, path) => typeof u === "string" && u.startsWith(base + path);

async function main() {
  const client = new Client({ name: "weft-t_mcp_sdk", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(base + "/mcp"));
  await client.connect(transport);
  ok(client.getServerVersion()?.name === "weft", "connects: server weft",
    JSON.stringify(client.getServerVersion()));
  ok(/^[0-9a-f]{64}$/.test(transport.sessionId ?? ""), "a session id was issued",
    transport.sessionId);
  ok(client.getServerCapabilities()?.tools !== undefined, "tools capability");

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  const want = ["ask", "get_institution", "get_paper", "get_researcher",
    "researcher_papers", "search", "similar_papers"];
  ok(JSON.stringify(names) === JSON.stringify(want), "tools/list: the seven tools",
    names.join(" "));
  ok(tools.every((t) => t.inputSchema?.type === "object" &&
    t.outputSchema?.type === "object" && t.description),
    "every tool has an input schema, an output schema and a description");

  // search
  let r = await client.callTool({ name: "search",
    arguments: { q: "distributed deep learning", type: "papers", mode: "lexical" } });
  const s = r.structuredContent;
  ok(!r.isError && s?.total > 0 && s.results.length > 0,
    "search: papers found", JSON.stringify(r).slice(0, 300));
  ok(s?.results?.every((p) => isUrl(p.url, "/papers/")),
    "search: every result has its canonical URL");
  ok(isUrl(s?.url, "/search?"), "search: the search's own URL", s?.url);
  r = await client.callTool({ name: "search",
    arguments: { q: "learning", sort: "newest", page: 2, category: "cs.LG" } });
  ok(!r.isError && r.structuredContent?.pagination?.page === 2,
    "search: filters, sort and page", JSON.stringify(r).slice(0, 300));

  // get_paper: any form of the id
  r = await client.callTool({ name: "get_paper", arguments: { id: "arXiv:2512.20345v1" } });
  const p = r.structuredContent;
  ok(!r.isError && p?.arxiv_id === "2512.20345", "get_paper: arXiv:ID vN resolves",
    JSON.stringify(r).slice(0, 300));
  ok(isUrl(p?.url, "/papers/2512.20345-"), "get_paper: canonical URL", p?.url);
  ok(r.content?.[0]?.type === "text" && r.content[0].text.includes(p?.title?.slice(0, 20) ?? "\u0000"),
    "get_paper: the markdown view names the title", r.content?.[0]?.text?.slice(0, 200));
  r = await client.callTool({ name: "get_paper",
    arguments: { id: "https://arxiv.org/abs/2512.20345" } });
  ok(r.structuredContent?.arxiv_id === "2512.20345", "get_paper: an arxiv.org URL");
  r = await client.callTool({ name: "get_paper", arguments: { id: "2512.99999" } });
  ok(r.isError === true, "get_paper: a paper weft lacks is a tool error");

  // similar_papers
  r = await client.callTool({ name: "similar_papers", arguments: { id: "2512.20345" } });
  ok(!r.isError && Array.isArray(r.structuredContent?.items) &&
    r.structuredContent.paper?.arxiv_id === "2512.20345",
    "similar_papers: a list for the paper", JSON.stringify(r).slice(0, 300));

  // get_researcher / researcher_papers: an author of the paper
  const author = (p?.authors ?? []).find((a) => isUrl(a.researcher?.url, "/researchers/"))?.researcher;
  const rid = author?.url?.match(/\/researchers\/([0-9]+)-/)?.[1];
  ok(rid !== undefined, "the paper links a researcher", JSON.stringify(p?.authors?.[0]));
  r = await client.callTool({ name: "get_researcher", arguments: { id: rid } });
  const res = r.structuredContent;
  ok(!r.isError && String(res?.id) === rid && isUrl(res?.url, `/researchers/${rid}-`),
    "get_researcher: the researcher and canonical URL", JSON.stringify(r).slice(0, 300));
  ok(r.content?.[0]?.text?.includes(res?.name ?? "\u0000"),
    "get_researcher: markdown names the researcher");
  r = await client.callTool({ name: "get_researcher", arguments: { id: Number(rid) } });
  ok(String(r.structuredContent?.id) === rid, "get_researcher: a numeric id");
  r = await client.callTool({ name: "researcher_papers",
    arguments: { id: rid, sort: "citations" } });
  const rp = r.structuredContent;
  ok(!r.isError && rp?.papers?.items?.length > 0 && rp.papers.sort === "citations" &&
    rp.papers.items.every((x) => isUrl(x.url, "/papers/")),
    "researcher_papers: papers with canonical URLs, sorted", JSON.stringify(r).slice(0, 300));
  ok(rp?.papers?.items?.some((x) => x.arxiv_id === "2512.20345"),
    "researcher_papers: lists the paper they wrote");

  // search: the paper_type filter, in the schema and in the results
  const st = tools.find((t) => t.name === "search");
  ok(st?.inputSchema?.properties?.paper_type?.enum?.includes("survey"),
    "search: paper_type in the input schema");
  r = await client.callTool({ name: "search",
    arguments: { q: "software", paper_type: "survey" } });
  ok(!r.isError && r.structuredContent?.filters?.paper_type === "survey" &&
    r.structuredContent?.total > 0 &&
    r.structuredContent.paper_type_facets.every((f) => f.paper_type === "survey"),
    "search: paper_type=survey filters", JSON.stringify(r).slice(0, 300));

  // ask: extracts with numbered references, in every scope
  r = await client.callTool({ name: "ask", arguments: {
    question: "What bugs do distributed deep learning systems have?",
    scope: "paper", id: "arXiv:2512.20345v1" } });
  let a = r.structuredContent;
  ok(!r.isError && a?.scope === "paper" && a?.mode === "extractive" &&
    a?.references?.length === 1 && a.references[0].arxiv_id === "2512.20345" &&
    isUrl(a.references[0].url, "/papers/2512.20345-") && /\[1\\?\]/.test(a.answer),
    "ask scope=paper: extracts citing [1], the paper's canonical URL",
    JSON.stringify(r).slice(0, 400));
  ok(r.content?.[0]?.text?.includes("## References") &&
    r.content[0].text.includes(a.references[0].url),
    "ask: the text lists the references with their URLs");
  r = await client.callTool({ name: "ask", arguments: {
    question: "automated program repair with language models" } });
  a = r.structuredContent;
  ok(!r.isError && a?.scope === "all" && a?.references?.length > 1 &&
    a.references.every((x, i) => x.n === i + 1 && isUrl(x.url, "/papers/")),
    "ask scope=all: numbered references with canonical URLs",
    JSON.stringify(r).slice(0, 300));
  r = await client.callTool({ name: "ask", arguments: {
    question: "what do they study?", scope: "researcher", id: rid } });
  ok(!r.isError && r.structuredContent?.references?.some((x) => x.arxiv_id === "2512.20345"),
    "ask scope=researcher: the researcher's papers", JSON.stringify(r).slice(0, 300));
  r = await client.callTool({ name: "ask", arguments: {
    question: "which methods?", scope: "search", id: "graph neural network" } });
  ok(!r.isError && r.structuredContent?.scope === "search" &&
    r.structuredContent?.references?.length > 0,
    "ask scope=search: the search's papers", JSON.stringify(r).slice(0, 300));
  r = await client.callTool({ name: "ask", arguments: {
    question: "what?", scope: "paper", id: "2512.99999" } });
  ok(r.isError === true, "ask about a paper weft lacks: isError");

  // get_institution: the first institution a search finds
  r = await client.callTool({ name: "search",
    arguments: { q: "university", type: "institutions" } });
  const iurl = r.structuredContent?.results?.[0]?.url;
  const iid = iurl?.match(/\/institutions\/([0-9]+)/)?.[1];
  ok(iid !== undefined, "search type=institutions finds one", JSON.stringify(r).slice(0, 300));
  r = await client.callTool({ name: "get_institution", arguments: { id: iid } });
  ok(!r.isError && String(r.structuredContent?.id) === iid &&
    isUrl(r.structuredContent?.url, `/institutions/${iid}`),
    "get_institution: the institution and canonical URL", JSON.stringify(r).slice(0, 300));

  // Errors reach the client as JSON-RPC errors.
  try {
    await client.callTool({ name: "no_such_tool", arguments: {} });
    ok(false, "an unknown tool is refused");
  } catch (e) {
    ok(e.code === -32602, "an unknown tool: -32602", e.message);
  }
  try {
    await client.callTool({ name: "search", arguments: { q: 5 } });
    ok(false, "a wrong argument type is refused");
  } catch (e) {
    ok(e.code === -32602, "a wrong argument type: -32602", e.message);
  }

  // Resources
  const { resourceTemplates } = await client.listResourceTemplates();
  ok(resourceTemplates.some((t) => t.uriTemplate === `${base}/papers/{arxiv_id}`) &&
    resourceTemplates.some((t) => t.uriTemplate === `${base}/researchers/{id}`),
    "resources/templates/list: papers and researchers");
  const { resources } = await client.listResources();
  ok(resources.length > 0 && resources.length <= 100 &&
    resources.every((x) => isUrl(x.uri, "/papers/")),
    "resources/list: a bounded list of paper URLs", resources.length);
  const rr = await client.readResource({ uri: p.url });
  ok(rr.contents?.[0]?.mimeType === "text/markdown" &&
    rr.contents[0].text.includes(p.title.slice(0, 20)) && rr.contents[0].uri === p.url,
    "resources/read: the paper as markdown", JSON.stringify(rr).slice(0, 300));
  const rr2 = await client.readResource({ uri: `${base}/researchers/${rid}` });
  ok(isUrl(rr2.contents?.[0]?.uri, `/researchers/${rid}-`),
    "resources/read: a bare researcher URL, read at its canonical URL");

  await client.ping();
  ok(true, "ping");
  await transport.terminateSession();
  ok(transport.sessionId === undefined, "DELETE ends the session");
  await client.close();
}

main().catch((e) => {
  ok(false, "the client ran to the end", e?.stack ?? e);
}).finally(() => {
  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
});
