// Node module hook for test/integrations/missing-peers.test.ts: the optional peers of the agent
// integrations resolve as if they were not installed (ERR_MODULE_NOT_FOUND, as Node reports it).
import { register } from 'node:module';

const hook = `
export async function resolve(specifier, context, next) {
  if (/^(@modelcontextprotocol\\/sdk|ai|@langchain\\/langgraph-checkpoint)(\\/|$)/.test(specifier)) {
    const e = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    e.code = 'ERR_MODULE_NOT_FOUND';
    throw e;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
