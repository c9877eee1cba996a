export { makeTestCertificates, type TestCertificates } from '@cms/testing';
