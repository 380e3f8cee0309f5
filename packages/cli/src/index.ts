export { main, commands } from "./main.js";
export type { Command, Io, ParsedArgs } from "./command.js";
