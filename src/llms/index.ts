// /llms.txt and the guides it links to: the sandbox's documents for coding agents. The route table imports this file.
export { llmsRoutes } from './routes.ts'
