/** Prints the README's configuration table from the config schema's documentation. */
import { configurationTable } from '../src/config.ts';

console.log(configurationTable());
