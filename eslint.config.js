// A small rule set on top of what the TypeScript compiler already enforces (strict mode,
// noUncheckedIndexedAccess, noUnused*): mistakes the compiler lets through.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'assembly/**', 'bench/results/**'] },
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // Unused names are the compiler's job (noUnusedLocals/Parameters), with its `_` convention.
      '@typescript-eslint/no-unused-vars': 'off',
      // Non-null assertions follow indexed access under noUncheckedIndexedAccess.
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-throw-literal': 'error',
      'no-implicit-coercion': ['error', { allow: ['!!'] }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Node globals for the launchers and scripts.
    files: ['bin/**/*.js', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
  },
);
