// Scaffold: installs npm dependencies when they are missing. The real-editor setup extends this.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
if (!existsSync('node_modules/.package-lock.json')) execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
