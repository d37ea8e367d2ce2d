// Generated from spec/openapi.yaml by `npm run generate:types`. Do not edit.

export type paths = {
    "/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain a bearer access token (OAuth 2.0 client credentials)
         * @description OAuth 2.0 client-credentials grant: HTTP Basic with client_id and client_secret, a form body with grant_type client_credentials and the comma-separated scope names. The granted scope is echoed.
         */
        post: operations["getAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/usd/direct": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a USD bank transfer (ACH or WIRE)
         * @description The `reference` is the merchant's idempotency and tracking key. The response echoes the
         *     request fields and adds transaction_date, transaction_id and transaction_status.
         */
        post: operations["usdTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a payout to a wallet-provider account identified by e-mail
         * @description Pays out to the wallet-provider account whose identifier (wallet_id) is the recipient's e-mail. The new payout starts processing.
         */
        post: operations["walletPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a US bank account for a customer
         * @description Creates a US bank account for one of the merchant's customers. The account starts ACTIVE with balance 0 and one account number and routing number per rail (ACH, RTP, WIRE).
         */
        post: operations["createAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cards/{card_id}/transactions/{transaction_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a virtual-card transaction
         * @description Reads one transaction of a virtual card.
         */
        get: operations["getCardTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/card/{transaction_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the final status of a push-to-card payment
         * @description Returns the final status of a push-to-card payment. No operation creates push-to-card payments.
         */
        get: operations["getPushToCardPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cards/virtual/{card_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a virtual card
         * @description Reads a virtual card: its balance, status and the non-secret parts of its number.
         */
        get: operations["getVirtualCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the merchant's customers
         * @description Returns one page of the merchant's customers with page, total_count and total_pages.
         */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p2p/status/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the validation status of a user's bank-network (p2p) identifier
         * @description The response message states that the status of the validation request is delivered through a webhook.
         */
        get: operations["getP2pStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    "usd_transfer.successful": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A USD transfer moved from processing to successful */
        post: operations["onUsdTransferSuccessful"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "usd_transfer.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A USD transfer moved from processing to failed */
        post: operations["onUsdTransferFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "wallet_payout.successful": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A wallet payout moved from processing to successful */
        post: operations["onWalletPayoutSuccessful"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "wallet_payout.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A wallet payout moved from processing to failed */
        post: operations["onWalletPayoutFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "push_to_card.successful": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A push-to-card payment moved from processing to successful */
        post: operations["onPushToCardSuccessful"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "push_to_card.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A push-to-card payment moved from processing to failed */
        post: operations["onPushToCardFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "p2p.validated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A user's bank-network (p2p) identifier was validated
         * @description The webhook that the message of GET /p2p/status/{user_id} promises.
         */
        post: operations["onP2pValidated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        /** @description The envelope of every success response; `data` depends on the operation. */
        SuccessEnvelope: {
            /** @constant */
            success: true;
            message: string;
            data: Record<string, never>;
        };
        /** @description The envelope of every error response; only success (false) and message. */
        ErrorEnvelope: {
            /** @constant */
            success: false;
            message: string;
        };
        /** @description An amount of money in USD. */
        Amount: number & unknown;
        /**
         * Format: date-time
         * @description ISO 8601 timestamp in UTC (ends in Z).
         * @example 2024-06-14T10:20:00Z
         */
        Timestamp: string & unknown;
        /**
         * @description Status of a USD transfer.
         * @enum {string}
         */
        TransactionStatus: "processing" | "successful" | "failed";
        /** @description Status of a wallet payout or push-to-card payment; the description shows only processing. */
        PaymentStatus: string & ("processing" | "successful" | "failed");
        /** @enum {string} */
        AccountType: "CHECKING" | "SAVINGS" | "BUSINESS";
        /** @enum {string} */
        TransferType: "ACH" | "WIRE";
        TokenRequest: {
            /** @enum {string} */
            grant_type: "client_credentials";
            /** @description Comma-separated scope names (card, us_account). */
            scope?: string;
        };
        AccessToken: {
            access_token: string & unknown;
            expires_in_seconds: number;
            /** @description The granted scope names, comma-separated. */
            scope: string;
            token_type: string & "Bearer";
        };
        TokenResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["AccessToken"];
        };
        /**
         * @description The interface description's list of required fields spells one name `receipient_name`
         *     while the defined property is `recipient_name`; it says clients send `recipient_name`,
         *     so that is the name required here.
         */
        UsdTransferRequest: {
            /**
             * @description The US account the funds are taken from. For an account created with hold_balance false,
             *     the merchant's own US account identifier is passed.
             */
            account_id: string & (unknown & unknown);
            /** @description Recipient's bank account number. */
            account_number: string & (unknown & unknown);
            account_type: components["schemas"]["AccountType"];
            amount: components["schemas"]["Amount"];
            /** @description Routing number of the recipient's bank. */
            routing_number: string & (unknown & unknown);
            transfer_type: components["schemas"]["TransferType"];
            /** @description Merchant-supplied unique reference, used for idempotency and tracking. */
            reference: string & (unknown & unknown);
            recipient_email: string & (unknown & unknown);
            recipient_name: string & (unknown & unknown);
            description?: string & unknown;
        };
        UsdTransfer: {
            account_number: string;
            account_type: components["schemas"]["AccountType"];
            amount: number;
            description: string;
            reference: string;
            recipient_email: string & unknown;
            recipient_name: string;
            routing_number: string;
            transaction_date: components["schemas"]["Timestamp"];
            transaction_id: string & unknown;
            transaction_status: components["schemas"]["TransactionStatus"];
            transfer_type: components["schemas"]["TransferType"];
        };
        UsdTransferResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["UsdTransfer"];
        };
        WalletPayoutRequest: {
            /** @description The US account the funds are taken from (the merchant's account when hold_balance is false). */
            account_id: string & (unknown & unknown);
            amount: components["schemas"]["Amount"];
            /**
             * Format: email
             * @description The recipient's wallet identifier, an e-mail.
             */
            wallet_id: string & unknown;
            recipient_name: string & (unknown & unknown);
            description?: string & unknown;
        };
        WalletPayout: {
            amount: number;
            description: string;
            wallet_id: string & unknown;
            recipient_name: string;
            transaction_date: components["schemas"]["Timestamp"];
            transaction_id: string & unknown;
            transaction_status: components["schemas"]["PaymentStatus"];
        };
        WalletPayoutResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["WalletPayout"];
        };
        AccountCreationRequest: {
            /** @description Whether the account holds a balance of its own. */
            hold_balance: boolean;
            /** @description Identifier of the merchant's customer (user). */
            user_id: string & (unknown & unknown);
        };
        RailNumbers: {
            account_number: string;
            routing_number: string;
        };
        Account: {
            account_id: string & unknown;
            /** @description ACTIVE is the value returned on creation. */
            account_status: string & ("ACTIVE" | "FROZEN" | "CLOSED");
            /** @description 0 on creation. */
            balance: number;
            /** @description One account number and routing number per rail. */
            numbers: {
                ACH: components["schemas"]["RailNumbers"];
                RTP: components["schemas"]["RailNumbers"];
                WIRE: components["schemas"]["RailNumbers"];
            };
        };
        AccountResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["Account"];
        };
        VirtualCard: {
            card_id: string & unknown;
            card_name: string;
            card_brand: string;
            card_type: string & "VIRTUAL";
            card_status: string & ("ACTIVE" | "FROZEN" | "TERMINATED");
            card_balance: number;
            currency: string;
            cvv: string & unknown;
            /** @description Month and two-digit year. */
            expiration: string;
            first_six: string;
            last_four: string;
        };
        VirtualCardResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["VirtualCard"];
        };
        CardTransaction: {
            transaction_id: string & unknown;
            card_id: string & unknown;
            /** @description Fractional values occur. */
            amount: number;
            currency: string;
            description: string;
            merchant_name: string;
            transaction_date: components["schemas"]["Timestamp"];
            transaction_status: components["schemas"]["PaymentStatus"];
            transaction_type: string & ("PURCHASE" | "REFUND" | "AUTHORIZATION");
        };
        CardTransactionResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["CardTransaction"];
        };
        PushToCardPayment: {
            transaction_id: string & unknown;
            amount: number;
            card_number: string & unknown;
            description: string;
            transaction_date: components["schemas"]["Timestamp"];
            transaction_status: components["schemas"]["PaymentStatus"];
        };
        PushToCardResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["PushToCardPayment"];
        };
        User: {
            user_id: string & unknown;
            email: string & unknown;
            firstname: string;
            lastname: string;
            telephone: string;
        };
        UserList: {
            items: components["schemas"]["User"][];
            page: number;
            total_count: number;
            total_pages: number;
        } & unknown;
        UserListResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["UserList"];
        };
        P2pStatus: {
            /** Format: email */
            p2p_id: string;
            /** @description The value VALIDATED is shown. */
            status: string & ("PENDING" | "VALIDATED" | "FAILED");
        };
        P2pStatusResponse: components["schemas"]["SuccessEnvelope"] & {
            data?: components["schemas"]["P2pStatus"];
        };
        EventBase: {
            /** @description The event name, as the webhook's key in this document. */
            type: string;
            timestamp: components["schemas"]["Timestamp"];
            data: Record<string, never>;
        };
        UsdTransferEvent: components["schemas"]["EventBase"] & {
            /** @enum {unknown} */
            type?: "usd_transfer.successful" | "usd_transfer.failed";
            data?: components["schemas"]["UsdTransfer"];
        };
        WalletPayoutEvent: components["schemas"]["EventBase"] & {
            /** @enum {unknown} */
            type?: "wallet_payout.successful" | "wallet_payout.failed";
            data?: components["schemas"]["WalletPayout"];
        };
        PushToCardEvent: components["schemas"]["EventBase"] & {
            /** @enum {unknown} */
            type?: "push_to_card.successful" | "push_to_card.failed";
            data?: components["schemas"]["PushToCardPayment"];
        };
        P2pValidatedEvent: components["schemas"]["EventBase"] & {
            /** @constant */
            type?: "p2p.validated";
            data?: components["schemas"]["P2pStatus"] & {
                user_id: string;
            };
        };
    };
    responses: {
        /** @description The request is invalid (missing or invalid fields, unknown identifiers). */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The bearer token is missing, malformed, unknown or expired. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The token is valid but lacks the scope the operation needs. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The client credentials are wrong. */
        InvalidClient: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The request body is over the size limit. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
    };
    parameters: {
        /**
         * @description Identifier of the virtual card.
         * @example card_8e7d6c5b4a39281f
         */
        CardId: string & unknown;
        /**
         * @description Unique id of the event; the same on every retry of one delivery.
         * @example msg_2b7c4e9f1a3d5c6e
         */
        WebhookId: string;
        /**
         * @description Unix time in seconds of this attempt.
         * @example 1718360400
         */
        WebhookTimestamp: string;
        /**
         * @description Space-separated signatures, each `v1,` followed by base64 HMAC-SHA256 of `id.timestamp.body`.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        WebhookSignature: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description A new access token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["InvalidClient"];
        };
    };
    usdTransfer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UsdTransferRequest"];
            };
        };
        responses: {
            /** @description The transfer record; a repeated reference with the same body returns the same record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsdTransferResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The reference was already used with a different request body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
        };
    };
    walletPayout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletPayoutRequest"];
            };
        };
        responses: {
            /** @description The payout record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletPayoutResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
        };
    };
    createAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountCreationRequest"];
            };
        };
        responses: {
            /** @description The new account, ACTIVE with balance 0. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
        };
    };
    getCardTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the virtual card.
                 * @example card_8e7d6c5b4a39281f
                 */
                card_id: components["parameters"]["CardId"];
                /**
                 * @description Identifier of the card transaction.
                 * @example ctx_5c1d2e3f4a5b6c7d
                 */
                transaction_id: string & unknown;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card transaction. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardTransactionResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getPushToCardPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the push-to-card payment.
                 * @example ptc_9a8b7c6d5e4f3a2b
                 */
                transaction_id: string & unknown;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The push-to-card payment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushToCardResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getVirtualCard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the virtual card.
                 * @example card_8e7d6c5b4a39281f
                 */
                card_id: components["parameters"]["CardId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The virtual card. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VirtualCardResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /**
                 * @description 1-based page number; a page past the last one has no items.
                 * @example 1
                 */
                page?: number;
                /**
                 * @description Users per page.
                 * @example 20
                 */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
        };
    };
    getP2pStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the merchant's customer.
                 * @example usr_3f2a9c1e7b4d5a60
                 */
                user_id: string & unknown;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The validation status; the result also arrives as a p2p.validated webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["P2pStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    onUsdTransferSuccessful: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of one delivery.
                 * @example msg_2b7c4e9f1a3d5c6e
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt.
                 * @example 1718360400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` followed by base64 HMAC-SHA256 of `id.timestamp.body`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UsdTransferEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer acknowledges the delivery; anything else is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onUsdTransferFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of one delivery.
                 * @example msg_2b7c4e9f1a3d5c6e
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt.
                 * @example 1718360400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` followed by base64 HMAC-SHA256 of `id.timestamp.body`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UsdTransferEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer acknowledges the delivery; anything else is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onWalletPayoutSuccessful: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of one delivery.
                 * @example msg_2b7c4e9f1a3d5c6e
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt.
                 * @example 1718360400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` followed by base64 HMAC-SHA256 of `id.timestamp.body`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletPayoutEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer acknowledges the delivery; anything else is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onWalletPayoutFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of one delivery.
                 * @example msg_2b7c4e9f1a3d5c6e
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt.
                 * @example 1718360400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` followed by base64 HMAC-SHA256 of `id.timestamp.body`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletPayoutEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer acknowledges the delivery; anything else is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onPushToCardSuccessful: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of one delivery.
                 * @example msg_2b7c4e9f1a3d5c6e
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt.
                 * @example 1718360400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` followed by base64 HMAC-SHA256 of `id.timestamp.body`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PushToCardEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer acknowledges the delivery; anything else is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onPushToCardFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of one delivery.
                 * @example msg_2b7c4e9f1a3d5c6e
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt.
                 * @example 1718360400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` followed by base64 HMAC-SHA256 of `id.timestamp.body`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PushToCardEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer acknowledges the delivery; anything else is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onP2pValidated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of one delivery.
                 * @example msg_2b7c4e9f1a3d5c6e
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt.
                 * @example 1718360400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` followed by base64 HMAC-SHA256 of `id.timestamp.body`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["P2pValidatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answer acknowledges the delivery; anything else is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
