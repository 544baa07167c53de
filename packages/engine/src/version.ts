/** The aqa program's version: `aqa --version`, and what an agent tells the server it registers with. */
export const AQA_VERSION = '0.1.0';
