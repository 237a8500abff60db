#!/usr/bin/env node
// Entry point of the `gcpc` command: registers tsx so the TypeScript CLI runs without a build step.
import { register } from "tsx/esm/api";
register();
const { mainProcess } = await import("../cli/main.ts");
mainProcess();
