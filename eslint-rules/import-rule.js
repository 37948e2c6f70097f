// What the repository's own import rules share: each is a 'problem' rule without options that looks
// at the specifier of every import and re-export (and, for some, of dynamic `import()`).
import path from 'node:path';

/** An ESLint rule of type 'problem' that takes no options. */
export const problemRule = ({ description, messages, create }) => ({
  meta: { type: 'problem', docs: { description }, schema: [], messages },
  create,
});

/**
 * Visitors that call `check(source, node)` with the string specifier of every static import and
 * re-export, and of `import()` too when `dynamic` is set.
 */
export function importVisitors(check, { dynamic = false } = {}) {
  const visit = (node) => {
    if (node.source && typeof node.source.value === 'string') check(node.source, node);
  };
  const visitors = { ImportDeclaration: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit };
  return dynamic ? { ...visitors, ImportExpression: visit } : visitors;
}

/** './x' and '../x', not a package name. */
export const isRelative = (specifier) => specifier.startsWith('.');

/** The absolute path a relative specifier names from `fromFile`, as written (no extension resolved). */
export const resolveSpecifier = (fromFile, specifier) => path.resolve(path.dirname(fromFile), specifier);
