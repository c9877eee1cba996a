// Integration suites talk to a real broker and database: give them time, and one suite at a time.
jest.setTimeout(120000);
