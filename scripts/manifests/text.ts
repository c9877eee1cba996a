import type { ServiceEntry } from '../../libs/config/src/services';

/** The first line of every file the generator writes. */
export const GENERATED =
  '# Written by scripts/generate-manifests.ts from libs/config/src/services.ts: edit those, not this.';

/** The width prose comments are wrapped at, as in the manifests before they were generated. */
const COMMENT_WIDTH = 103;

/** `text` as `#` comment lines under `indent`, each at most COMMENT_WIDTH characters where words allow. */
export function comment(text: string, indent = ''): string {
  const lines: string[] = [];
  let line = `${indent}#`;
  for (const word of text.split(/\s+/)) {
    if (line.length > indent.length + 1 && line.length + 1 + word.length > COMMENT_WIDTH) {
      lines.push(line);
      line = `${indent}#`;
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** `contacts'`, `gateway's`. */
export function possessive(name: string): string {
  return name.endsWith('s') ? `${name}'` : `${name}'s`;
}

/** The services that share `role`, as a Kustomize target name (a regular expression): `a|b`. */
export function namePattern(services: readonly ServiceEntry[]): string {
  return services.map((service) => service.name).join('|');
}
