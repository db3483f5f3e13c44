#!/usr/bin/env node
import { runCommand } from "./run.js";

runCommand(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
