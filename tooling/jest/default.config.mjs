import { createJestConfig } from './jest.base.mjs';

export default createJestConfig(process.cwd());
